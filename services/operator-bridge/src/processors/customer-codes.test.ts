import type { Db } from '@mm/db';
import { createCashin } from '@mm/db/payments';
import { createLogger } from '@mm/observability';
import {
  OperatorRefusedError,
  OperatorUnavailableError,
  type OperatorAdapter,
  type PaymentLookup,
} from '@mm/operators';
import { oneAdapter } from '@mm/operators/testing';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing';
import { customerCodesHandler } from './customer-codes.js';

/** An operator recording the codes it is handed, or failing as told. */
function codeOperator(fail?: Error) {
  const codes: { reference: string; code: string }[] = [];
  const adapter: Pick<OperatorAdapter, 'submitCode'> = {
    submitCode: async (p: PaymentLookup, code: string) => {
      if (fail) throw fail;
      codes.push({ reference: p.partnerReference, code });
    },
  };
  return { adapter, codes };
}

describe('customer-codes processor', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let seq = 0;
  const logged: unknown[] = [];
  const logger = createLogger('test', 'silent');
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
    for (const level of ['info', 'warn', 'error'] as const) {
      const original = logger[level].bind(logger);
      (logger as unknown as Record<string, unknown>)[level] = (...args: unknown[]) => {
        logged.push(args);
        return original(...(args as [object, string]));
      };
    }
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function cashin(status: 'CREATED' | 'PENDING' | 'SUCCESS', customerAction: object | null) {
    const r = await createCashin(db, {
      merchantId: fixture.merchantId,
      merchantOrderId: `code-${++seq}`,
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250701000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: `code-${seq}`,
    });
    if (r.kind !== 'created') throw new Error('not created');
    await db.transaction.update({
      where: { id: r.transaction.id },
      data: { status, ...(customerAction ? { customerAction } : {}) },
    });
    return r.transaction;
  }
  const OTP = { type: 'OTP', ussd: '#144*82#' };

  it("hands the code to the cash-in's operator with its provider reference", async () => {
    const t = await cashin('PENDING', OTP);
    const op = codeOperator();
    expect(
      await customerCodesHandler({ db, adapters: oneAdapter(op.adapter), logger })({
        transaction_id: t.id,
        code: '482913',
      }),
    ).toBe('submitted');
    expect(op.codes).toEqual([{ reference: t.providerReference, code: '482913' }]);
  });

  it.each([
    ['not PENDING yet', 'CREATED', OTP],
    ['already decided', 'SUCCESS', OTP],
    ['without an OTP action', 'PENDING', { type: 'REDIRECT', url: 'https://op.example/p' }],
    ['without any action', 'PENDING', null],
  ] as const)('drops a code for a cash-in %s without calling the operator', async (_what, status, action) => {
    const t = await cashin(status, action);
    const op = codeOperator();
    expect(
      await customerCodesHandler({ db, adapters: oneAdapter(op.adapter), logger })({
        transaction_id: t.id,
        code: '482913',
      }),
    ).toBe('not-waiting');
    expect(op.codes).toEqual([]);
  });

  it('drops a code for an unknown transaction, and one for an operator that takes no codes', async () => {
    const op = codeOperator();
    expect(
      await customerCodesHandler({ db, adapters: oneAdapter(op.adapter), logger })({
        transaction_id: '00000000-0000-4000-8000-000000000000',
        code: '1234',
      }),
    ).toBe('not-waiting');
    const t = await cashin('PENDING', OTP);
    expect(
      await customerCodesHandler({ db, adapters: oneAdapter({}), logger })({ transaction_id: t.id, code: '1234' }),
    ).toBe('unsupported');
  });

  it('does not retry a code the operator refuses, and retries (throws) when the operator cannot be reached; the cash-in is unchanged', async () => {
    const t = await cashin('PENDING', OTP);
    const refused = codeOperator(new OperatorRefusedError('code', 409, '{"error":"not_awaiting_code"}'));
    expect(
      await customerCodesHandler({ db, adapters: oneAdapter(refused.adapter), logger })({
        transaction_id: t.id,
        code: '1234',
      }),
    ).toBe('refused');
    const down = codeOperator(new OperatorUnavailableError('timeout'));
    await expect(
      customerCodesHandler({ db, adapters: oneAdapter(down.adapter), logger })({ transaction_id: t.id, code: '1234' }),
    ).rejects.toBeInstanceOf(OperatorUnavailableError);
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING');
  });

  it('logged what it dropped or was refused, never a code (runs last)', () => {
    expect(logged.length).toBeGreaterThanOrEqual(6);
    expect(JSON.stringify(logged)).not.toMatch(/482913|"1234"/);
  });
});
