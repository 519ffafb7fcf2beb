import { setSubsidiaryActive, upsertSubsidiary } from '@mm/db/merchants';
import { EXPIRY_TOPIC, OPERATOR_REQUEST_TOPIC } from '@mm/db/payments';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import {
  anotherMerchant,
  expectError,
  expectValidationError,
  newOrderId,
  unixTime,
  withoutWrites,
} from './support/contract.js';

let sys: System;

beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys.stop();
});

const CASHIN = '/api/v1/payments/cashin';
const CASHOUT = '/api/v1/payments/cashout';
// Numbers ending 06 never confirm: an accepted cash-in stays PENDING and writes nothing more.
const PENDING_FOREVER = CI_NUMBER('06');

type Balance = {
  country_code: string;
  country_name: string;
  currency: string;
  available_balance: number;
  pending_balance: number;
  updated_at: string;
};

async function balances(api: System['api'] = sys.api): Promise<Balance[]> {
  const res = await api('GET', '/api/v1/balances');
  expect(res.status).toBe(200);
  return res.body.data as Balance[];
}

const rowsOf = (merchantOrderId: string) =>
  sys.db.transaction.findMany({ where: { merchantId: sys.merchant.id, merchantOrderId } });

describe('idempotency on merchant_order_id (decisions 4)', () => {
  const order = () => ({
    merchant_order_id: newOrderId('idem'),
    amount: 7500,
    customer_msisdn: PENDING_FOREVER,
    motif: 'Commande 12',
    metadata: { cart: 'C3', items: 2 },
  });

  it('answers a repeated cash-in with the same body 200, Idempotent-Replayed: true and the same transaction', async () => {
    const body = order();
    const t0 = Number(unixTime());
    const first = await sys.api('POST', CASHIN, body, { timestamp: String(t0) });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Re-signed with another timestamp: the same signed request again would be a replay (401 REQUEST_REPLAYED).
    // (t0 - 1, not now - 1: the first answer may take over a second, and now - 1 could then equal t0.)
    const again = await withoutWrites(sys, () => sys.api('POST', CASHIN, body, { timestamp: String(t0 - 1) }));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual({ ...first.body.data, updated_at: again.body.data.updated_at });
    expect(await rowsOf(body.merchant_order_id)).toHaveLength(1);
  });

  it('treats the same parameters with keys in another order as a replay', async () => {
    const body = order();
    const first = await sys.api('POST', CASHIN, body);
    expect(first.status).toBe(202);
    const reordered = JSON.stringify({
      metadata: { items: 2, cart: 'C3' },
      customer_msisdn: body.customer_msisdn,
      motif: body.motif,
      amount: body.amount,
      merchant_order_id: body.merchant_order_id,
    });
    expect(reordered).not.toBe(JSON.stringify(body));
    const again = await withoutWrites(sys, () => sys.api('POST', CASHIN, reordered));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.transaction_id).toBe(first.body.data.transaction_id);
  });

  it.each([
    ['a different amount', { amount: 7501 }],
    ['a different customer_msisdn', { customer_msisdn: CI_NUMBER('16') }],
    ['a different motif', { motif: 'Commande 13' }],
    ['different metadata', { metadata: { cart: 'C4', items: 2 } }],
    ['an added return_url', { return_url: 'https://shop.example/back' }],
  ])(
    'answers 409 DUPLICATE_ORDER_ID to a reused merchant_order_id with %s, and writes nothing',
    async (_what, change) => {
      const body = order();
      const first = await sys.api('POST', CASHIN, body);
      expect(first.status).toBe(202);
      const conflict = await withoutWrites(sys, () => sys.api('POST', CASHIN, { ...body, ...change }));
      expectError(conflict, 409, 'DUPLICATE_ORDER_ID');
      const [row] = await rowsOf(body.merchant_order_id);
      expect({ amount: Number(row!.amount), msisdn: row!.msisdn, motif: row!.motif }).toEqual({
        amount: 7500,
        msisdn: PENDING_FOREVER,
        motif: 'Commande 12',
      });
    },
  );

  it('scopes merchant_order_id to one merchant: another merchant may use the same one', async () => {
    const body = order();
    const mine = await sys.api('POST', CASHIN, body);
    const other = await anotherMerchant(sys);
    const theirs = await other.api('POST', CASHIN, { ...body, amount: 9000 });
    expect([mine.status, theirs.status]).toEqual([202, 202]);
    expect(theirs.body.data.transaction_id).not.toBe(mine.body.data.transaction_id);
  });

  it('creates exactly one transaction for 10 concurrent identical requests, all answering with it', async () => {
    const body = order();
    const outboxBefore = await sys.db.outbox.count();
    // Distinct timestamps inside the tolerance: ten genuine retries, not replays of one signed request.
    const t0 = Number(unixTime());
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => sys.api('POST', CASHIN, body, { timestamp: String(t0 - i) })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 202]);
    for (const a of answers) expect(a.headers.get('idempotent-replayed')).toBe(a.status === 200 ? 'true' : null);
    const ids = new Set(answers.map((a) => a.body.data.transaction_id));
    expect(ids.size).toBe(1);
    const rows = await rowsOf(body.merchant_order_id);
    expect(rows.map((r) => r.id)).toEqual([...ids]);
    // One operator request for it, plus the one check its PENDING acknowledgement schedules (its
    // first status poll, which carries the later checks).
    const outbox = await sys.db.outbox.findMany({
      where: { payload: { path: ['transaction_id'], equals: rows[0]!.id } },
    });
    expect(outbox.map((o) => o.topic).sort()).toEqual([EXPIRY_TOPIC, OPERATOR_REQUEST_TOPIC].sort());
    expect(await sys.db.outbox.count()).toBe(outboxBefore + outbox.length);
  });
});

describe('cash-out (decisions 7): 501 while no disbursement is configured', () => {
  const cashout = (extra: Record<string, unknown> = {}) => ({
    merchant_order_id: newOrderId('out'),
    amount: 25_000,
    beneficiary_msisdn: PENDING_FOREVER,
    reason: 'Remboursement',
    ...extra,
  });

  it('answers a valid cash-out 501 DISBURSEMENT_NOT_CONFIGURED, writes no row and debits nothing', async () => {
    const before = await balances();
    for (const body of [cashout(), cashout({ amount: 1_000_000, currency: 'XOF' })]) {
      const res = await withoutWrites(sys, () => sys.api('POST', CASHOUT, body));
      expectError(res, 501, 'DISBURSEMENT_NOT_CONFIGURED');
    }
    expect(await balances()).toEqual(before);
    expect(await sys.db.transaction.count({ where: { type: { not: 'CASHIN' } } })).toBe(0);
  });

  it('validates before answering 501: a missing beneficiary_msisdn is 400 VALIDATION_ERROR', async () => {
    const body: Record<string, unknown> = cashout();
    delete body.beneficiary_msisdn;
    expectValidationError(await withoutWrites(sys, () => sys.api('POST', CASHOUT, body)), 'beneficiary_msisdn');
  });

  it('validates the other fields too: amount, beneficiary number, unknown fields, currency', async () => {
    const rejected = (body: unknown) => withoutWrites(sys, () => sys.api('POST', CASHOUT, body));
    expectValidationError(await rejected(cashout({ amount: '25000' })), 'amount');
    expectValidationError(await rejected(cashout({ beneficiary_msisdn: '0707000006' })), 'beneficiary_msisdn');
    expectValidationError(await rejected(cashout({ iban: 'CI93' })), 'iban');
    expectError(await rejected(cashout({ currency: 'XAF' })), 422, 'CURRENCY_MISMATCH');
  });

  it('authenticates before anything else: unauthenticated 401, badly signed 401', async () => {
    expectError(
      await withoutWrites(sys, () => sys.api('POST', CASHOUT, cashout(), { headers: {} })),
      401,
      'AUTHENTICATION_REQUIRED',
    );
    expectError(
      await withoutWrites(sys, () => sys.api('POST', CASHOUT, cashout(), { secretOverride: 'sk_wrong' })),
      401,
      'INVALID_SIGNATURE',
    );
    expectError(await sys.api('POST', CASHOUT, {}, { headers: {} }), 401, 'AUTHENTICATION_REQUIRED');
  });
});

describe('balances (decisions 6)', () => {
  const FIELDS = ['available_balance', 'country_code', 'country_name', 'currency', 'pending_balance', 'updated_at'];

  it('lists one entry per active subsidiary with the interface fields, zeros for a fresh merchant', async () => {
    const fresh = await anotherMerchant(sys, 'Nouvelle Boutique');
    const list = await balances(fresh.api);
    for (const b of list) {
      expect(Object.keys(b).sort()).toEqual(FIELDS);
      expect(new Date(b.updated_at).toISOString()).toBe(b.updated_at);
    }
    expect(
      list.map(({ updated_at: _u, ...b }) => b).sort((a, b) => a.country_code.localeCompare(b.country_code)),
    ).toEqual([
      { country_code: 'CI', country_name: "Côte d'Ivoire", currency: 'XOF', available_balance: 0, pending_balance: 0 },
      { country_code: 'CM', country_name: 'Cameroun', currency: 'XAF', available_balance: 0, pending_balance: 0 },
      { country_code: 'SN', country_name: 'Sénégal', currency: 'XOF', available_balance: 0, pending_balance: 0 },
    ]);
  });

  it('counts a cash-in awaiting confirmation in pending_balance of its country only', async () => {
    const fresh = await anotherMerchant(sys, 'Boutique Pending');
    const res = await fresh.api('POST', CASHIN, {
      merchant_order_id: newOrderId('bal'),
      amount: 4200,
      customer_msisdn: '+221771234506',
    });
    expect(res.status).toBe(202);
    const list = await balances(fresh.api);
    expect(list.map((b) => [b.country_code, b.available_balance, b.pending_balance])).toEqual(
      expect.arrayContaining([
        ['SN', 0, 4200],
        ['CI', 0, 0],
        ['CM', 0, 0],
      ]),
    );
  });

  it('shows a newly activated subsidiary (Togo) for every merchant, and accepts cash-ins there', async () => {
    const fresh = await anotherMerchant(sys, 'Boutique Togo');
    const tg = async (api: System['api']) => (await balances(api)).find((b) => b.country_code === 'TG');
    expect(await tg(fresh.api)).toBeUndefined();
    expectError(
      await fresh.api('POST', CASHIN, {
        merchant_order_id: newOrderId('tg'),
        amount: 1000,
        customer_msisdn: '+22890000006',
      }),
      422,
      'COUNTRY_NOT_SUPPORTED',
    );

    await upsertSubsidiary(sys.db, { countryCode: 'TG', countryName: 'Togo', currency: 'XOF', active: true });
    try {
      for (const api of [fresh.api, sys.api]) {
        const list = await balances(api);
        expect(list.map((b) => b.country_code).sort()).toEqual(['CI', 'CM', 'SN', 'TG']);
        const entry = list.find((b) => b.country_code === 'TG')!;
        expect(Object.keys(entry).sort()).toEqual(FIELDS);
        expect(entry).toMatchObject({
          country_name: 'Togo',
          currency: 'XOF',
          available_balance: 0,
          pending_balance: 0,
        });
      }
      const res = await fresh.api('POST', CASHIN, {
        merchant_order_id: newOrderId('tg'),
        amount: 1000,
        customer_msisdn: '+22890000006',
      });
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ country_code: 'TG', currency: 'XOF' });
      expect(await tg(fresh.api)).toMatchObject({ available_balance: 0, pending_balance: 1000 });
    } finally {
      await setSubsidiaryActive(sys.db, 'TG', false);
    }
    expect(await tg(fresh.api)).toBeUndefined();
  });
});
