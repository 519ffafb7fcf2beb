import { parseMsisdn } from '@mm/domain';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import { expectError, expectValidationError, newOrderId, withoutWrites } from './support/contract.js';

let sys: System;

beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys.stop();
});

const CASHIN = '/api/v1/payments/cashin';
// Numbers ending 06 never confirm: an accepted cash-in stays PENDING and writes nothing more.
const PENDING_FOREVER = CI_NUMBER('06');
const TOGO_NUMBER = '+22890123456';
const valid = (extra: Record<string, unknown> = {}) => ({
  merchant_order_id: newOrderId('val'),
  amount: 5000,
  customer_msisdn: PENDING_FOREVER,
  ...extra,
});
const without = (field: string) => {
  const body: Record<string, unknown> = valid();
  delete body[field];
  return body;
};
const metadataOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, `v${i}`]));

/** Posts `body` and checks it is refused without writing a transaction or an outbox row. */
const rejected = (body: unknown) => withoutWrites(sys, () => sys.api('POST', CASHIN, body));

async function accepted(body: Record<string, unknown>) {
  const res = await sys.api('POST', CASHIN, body);
  expect({ status: res.status, error: res.body?.error }).toEqual({ status: 202, error: undefined });
  return res.body.data as Record<string, unknown>;
}

describe('cash-in body validation: 400 VALIDATION_ERROR naming the field, nothing written', () => {
  it.each(['merchant_order_id', 'amount', 'customer_msisdn'])('rejects a body without %s', async (field) => {
    const details = expectValidationError(await rejected(without(field)), field);
    expect(details.find((d) => d.field === field)!.issue).toMatch(/required/);
  });

  it('lists every missing required field at once', async () => {
    const details = expectValidationError(await rejected({}), 'merchant_order_id');
    expect(details.map((d) => d.field).sort()).toEqual(['amount', 'customer_msisdn', 'merchant_order_id']);
  });

  it.each([
    ['a numeric string "5000"', '5000'],
    ['a decimal 12.5', 12.5],
    ['negative', -5000],
    ['zero', 0],
    ['null', null],
  ])('rejects an amount that is %s', async (_what, amount) => {
    expectValidationError(await rejected(valid({ amount })), 'amount');
  });

  it('rejects an unknown field', async () => {
    const details = expectValidationError(await rejected(valid({ discount: 10 })), 'discount');
    expect(details[0]!.issue).toMatch(/not allowed/);
  });

  it('rejects a "__proto__" key, at the top or inside metadata, instead of silently dropping it', async () => {
    const base = JSON.stringify(valid({}));
    expectValidationError(await rejected(base.replace('{', '{"__proto__":{"x":1},')), '__proto__');
    expectValidationError(await rejected(base.replace('{', '{"metadata":{"__proto__":"a"},')), '__proto__');
  });

  it('rejects a body that is JSON but not an object', async () => {
    for (const body of ['[]', '"cashin"', '42', 'null']) {
      const error = expectError(await rejected(body), 400, 'VALIDATION_ERROR');
      expect(error.details).toEqual([{ field: expect.any(String), issue: expect.any(String) }]);
    }
  });

  it('rejects a motif of 256 characters and accepts one of 255', async () => {
    expectValidationError(await rejected(valid({ motif: 'm'.repeat(256) })), 'motif');
    await accepted(valid({ motif: 'm'.repeat(255) }));
  });

  it('rejects metadata with 11 keys and accepts 10', async () => {
    expectValidationError(await rejected(valid({ metadata: metadataOf(11) })), 'metadata');
    await accepted(valid({ metadata: metadataOf(10) }));
  });

  it('rejects a metadata value that is an object, an array, null or a string over 500 characters', async () => {
    for (const value of [{ nested: 'x' }, ['a'], null, 'v'.repeat(501)]) {
      const details = expectValidationError(
        await rejected(valid({ metadata: { cart: 'A1', bad: value } })),
        'metadata.bad',
      );
      expect(details).toHaveLength(1);
    }
    await accepted(valid({ metadata: { cart: 'A1', qty: 3, gift: false, note: 'v'.repeat(500) } }));
  });

  it('rejects metadata that is not an object', async () => {
    expectValidationError(await rejected(valid({ metadata: 'cart=A1' })), 'metadata');
  });

  it.each([
    ['national format "0707000001"', '0707000001'],
    ['too short "+2250707"', '+2250707'],
    ['with spaces "+225 07 07 00 00 06"', '+225 07 07 00 00 06'],
    ['not a number "abc"', 'abc'],
  ])('rejects a customer_msisdn in %s', async (_what, customer_msisdn) => {
    expectValidationError(await rejected(valid({ customer_msisdn })), 'customer_msisdn');
  });

  it('rejects a customer_msisdn that is not a string', async () => {
    expectValidationError(await rejected(valid({ customer_msisdn: 2250707000006 })), 'customer_msisdn');
  });

  it('rejects a country_code that disagrees with the number (CI number, SN given) on country_code', async () => {
    const details = expectValidationError(await rejected(valid({ country_code: 'SN' })), 'country_code');
    expect(details).toHaveLength(1);
  });

  it('rejects malformed currency and country_code values', async () => {
    expectValidationError(await rejected(valid({ currency: 'xof' })), 'currency');
    expectValidationError(await rejected(valid({ country_code: 'CIV' })), 'country_code');
  });

  it('rejects return_url and notify_url that are not http(s) URLs', async () => {
    expectValidationError(await rejected(valid({ return_url: 'javascript:alert(1)' })), 'return_url');
    expectValidationError(await rejected(valid({ notify_url: 'ftp://hooks.example/x' })), 'notify_url');
  });
});

describe('cash-in business rules: 422, nothing written', () => {
  it('answers 422 COUNTRY_NOT_SUPPORTED for a valid number of a country with no active subsidiary (Togo)', async () => {
    expect(parseMsisdn(TOGO_NUMBER)).toEqual({ e164: TOGO_NUMBER, countryCode: 'TG' });
    expectError(await rejected(valid({ customer_msisdn: TOGO_NUMBER })), 422, 'COUNTRY_NOT_SUPPORTED');
    expectError(
      await rejected(valid({ customer_msisdn: TOGO_NUMBER, country_code: 'TG', currency: 'XOF' })),
      422,
      'COUNTRY_NOT_SUPPORTED',
    );
  });

  it('answers 422 COUNTRY_NOT_SUPPORTED for a valid number outside the franc zones (France)', async () => {
    expect(parseMsisdn('+33612345678')?.countryCode).toBe('FR');
    expectError(await rejected(valid({ customer_msisdn: '+33612345678' })), 422, 'COUNTRY_NOT_SUPPORTED');
  });

  it("answers 422 CURRENCY_MISMATCH for a Côte d'Ivoire number paid in XAF", async () => {
    expectError(await rejected(valid({ currency: 'XAF' })), 422, 'CURRENCY_MISMATCH');
    expectError(await rejected(valid({ currency: 'XAF', country_code: 'CI' })), 422, 'CURRENCY_MISMATCH');
  });

  it.each([99, 5_000_001])('answers 422 AMOUNT_OUT_OF_RANGE for %i', async (amount) => {
    expectError(await rejected(valid({ amount })), 422, 'AMOUNT_OUT_OF_RANGE');
  });

  it.each([100, 5_000_000])('accepts the amount bound %i', async (amount) => {
    expect(await accepted(valid({ amount }))).toMatchObject({ amount, status: 'PENDING' });
  });
});

describe('cash-in deductions and the status read', () => {
  it('deduces currency XOF and country CI when both are omitted, and accepts them when given consistently', async () => {
    expect(await accepted(valid())).toMatchObject({ currency: 'XOF', country_code: 'CI' });
    expect(await accepted(valid({ currency: 'XOF', country_code: 'CI' }))).toMatchObject({
      currency: 'XOF',
      country_code: 'CI',
    });
  });

  it('deduces XAF and CM for a Cameroun number', async () => {
    expect(await accepted(valid({ customer_msisdn: '+237671234506' }))).toMatchObject({
      currency: 'XAF',
      country_code: 'CM',
    });
  });

  it('GET /payments/{id} answers exactly the status-response fields plus failure_code, failure_reason, refunded_amount', async () => {
    const created = await accepted(valid({ motif: 'Commande 7', metadata: { cart: 'B2' } }));
    const res = await sys.api('GET', `/api/v1/payments/${String(created.transaction_id)}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const data = res.body.data as Record<string, unknown>;
    // The interface's status fields, plus the additive operator, customer_action and payment_link_id.
    expect(Object.keys(data).sort()).toEqual([
      'amount',
      'completed_at',
      'country_code',
      'currency',
      'customer_action',
      'failure_code',
      'failure_reason',
      'merchant_order_id',
      'operator',
      'payment_link_id',
      'payment_method',
      'provider_reference',
      'provider_session_id',
      'provider_state',
      'provider_tx_id',
      'provider_txn_status',
      'refunded_amount',
      'status',
      'transaction_id',
      'type',
    ]);
    expect(data).not.toHaveProperty('msisdn');
    expect(data).not.toHaveProperty('payment_url');
    expect(data.payment_link_id).toBeNull();
    expect(data).toMatchObject({
      transaction_id: created.transaction_id,
      merchant_order_id: created.merchant_order_id,
      type: 'CASHIN',
      status: 'PENDING',
      amount: 5000,
      currency: 'XOF',
      country_code: 'CI',
      payment_method: 'USSD_PUSH',
      provider_reference: created.provider_reference,
      provider_tx_id: null,
      provider_state: 'PENDING',
      provider_txn_status: null,
      completed_at: null,
      failure_code: null,
      failure_reason: null,
      refunded_amount: 0,
      operator: 'SIMULATOR',
      customer_action: { type: 'NONE' },
    });
    expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
  });
});
