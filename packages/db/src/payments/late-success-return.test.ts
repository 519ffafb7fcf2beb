import type { Db } from '../database/index.js';
import { balancesOf, verifyLedger } from '../ledger/index.js';
import { completeRefund } from './refunds/complete-refund.js';
import { holdLateSuccess } from './refunds/late-success-return.js';
import { createCashin } from './create-cashin.js';
import { transition } from './moves/transition.js';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';

/**
 * A late success for a FAILED cash-in (decisions 13): held in the country's suspense account, returned to
 * the customer at most once, the merchant's accounts and view untouched, verifyLedger clean throughout.
 */
describe('late success for a FAILED cash-in', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  let seq = 0;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase(6);
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  const OK = { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'MPLATE1' } as const;
  const suspense = async (countryCode = 'CI') =>
    (await db.ledgerAccount.findFirst({ where: { merchantId: null, countryCode, kind: 'CUSTOMER_SUSPENSE' } }))
      ?.balance ?? 0n;

  async function cashin(status: 'FAILED' | 'EXPIRED' | 'SUCCESS', amount = 4000) {
    const order = `late-${++seq}`;
    const r = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000013',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    const id = r.transaction.id;
    await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'INITIATED', cause: 'test' }));
    if (status !== 'SUCCESS')
      await db.$transaction((tx) =>
        transition(tx, {
          transactionId: id,
          to: status === 'FAILED' ? 'FAILED' : 'PENDING',
          cause: 'test',
          patch: { failureCode: status === 'FAILED' ? 'OPERATOR_UNAVAILABLE' : null },
        }),
      );
    if (status === 'EXPIRED')
      await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'EXPIRED', cause: 'test' }));
    if (status === 'SUCCESS')
      await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'SUCCESS', cause: 'test' }));
    return db.transaction.findUniqueOrThrow({ where: { id } });
  }

  it('holds the money in suspense, queues one return, and leaves the cash-in and the merchant as they were', async () => {
    const t = await cashin('FAILED');
    const balances = await balancesOf(db, merchantId);
    const before = await suspense();
    const held = await db.$transaction((tx) => holdLateSuccess(tx, t.id, OK));
    expect(held).not.toBeNull();
    expect(held!.refund).toMatchObject({
      transactionId: t.id,
      merchantId,
      amount: 4000n,
      status: 'PENDING',
      origin: 'LATE_SUCCESS',
      originalProviderTxId: 'MPLATE1',
    });
    expect(held!.outbox).toEqual([
      expect.objectContaining({ topic: 'refund-requests', payload: { refund_id: held!.refund.id } }),
    ]);
    expect(await suspense()).toBe(before + 4000n);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toEqual(t);
    expect(await balancesOf(db, merchantId)).toEqual(balances);
    expect(await db.webhookEvent.count({ where: { transactionId: t.id, eventType: 'refund.status_changed' } })).toBe(0);
    expect(await verifyLedger(db)).toMatchObject({ ok: true, problems: [] });
  });

  it('returns at most once: repeated and concurrent confirmations hold nothing more', async () => {
    const t = await cashin('FAILED', 2500);
    const before = await suspense();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => db.$transaction((tx) => holdLateSuccess(tx, t.id, OK))),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await db.$transaction((tx) => holdLateSuccess(tx, t.id, { ...OK, providerTxId: 'OTHER' }))).toBeNull();
    expect(await db.refund.count({ where: { transactionId: t.id } })).toBe(1);
    expect(
      await db.outbox.count({
        where: {
          topic: 'refund-requests',
          payload: { path: ['refund_id'], equals: results.find((r) => r)!.refund.id },
        },
      }),
    ).toBe(1);
    expect(await suspense()).toBe(before + 2500n);
    expect(await verifyLedger(db)).toMatchObject({ ok: true });
  });

  it('the unique index refuses a second return even past the check (two writers that skipped the lock)', async () => {
    const t = await cashin('FAILED', 1000);
    await db.$transaction((tx) => holdLateSuccess(tx, t.id, OK));
    await expect(db.$executeRaw`
      INSERT INTO refunds (id, transaction_id, merchant_id, amount, currency, status, provider_reference, request_fingerprint, origin)
      VALUES (gen_random_uuid(), ${t.id}::uuid, ${merchantId}::uuid, 1000, 'XOF', 'PENDING', 'RFDUPLICATE', 'x', 'LATE_SUCCESS')`).rejects.toThrow(
      /refunds_late_success_key/,
    );
  });

  it('holds nothing for a cash-in that is not FAILED, or a result that is not a confirmed payment', async () => {
    for (const status of ['EXPIRED', 'SUCCESS'] as const) {
      const t = await cashin(status);
      expect(await db.$transaction((tx) => holdLateSuccess(tx, t.id, OK))).toBeNull();
    }
    const failed = await cashin('FAILED');
    expect(
      await db.$transaction((tx) =>
        holdLateSuccess(tx, failed.id, { providerState: 'OK', providerTxnStatus: null, providerTxId: null }),
      ),
    ).toBeNull();
    expect(
      await db.$transaction((tx) =>
        holdLateSuccess(tx, failed.id, { providerState: 'canceled', providerTxnStatus: '54321', providerTxId: null }),
      ),
    ).toBeNull();
    expect(await db.refund.count({ where: { transactionId: failed.id } })).toBe(0);
  });

  it('a return paid back brings its suspense to zero, once, with no webhook and no change to the cash-in', async () => {
    const t = await cashin('FAILED', 3000);
    const before = await suspense();
    const balances = await balancesOf(db, merchantId);
    const held = (await db.$transaction((tx) => holdLateSuccess(tx, t.id, OK)))!;
    const done = await db.$transaction((tx) =>
      completeRefund(tx, held.refund.id, { status: 'SUCCESS', providerRefundId: 'RF1' }),
    );
    expect(done).toMatchObject({ refund: { status: 'SUCCESS', providerRefundId: 'RF1' }, reversed: null, outbox: [] });
    expect(
      await db.$transaction((tx) => completeRefund(tx, held.refund.id, { status: 'SUCCESS', providerRefundId: 'RF1' })),
    ).toBeNull();
    expect(await suspense()).toBe(before);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toEqual(t);
    expect(await balancesOf(db, merchantId)).toEqual(balances);
    expect(await db.webhookEvent.count({ where: { transactionId: t.id, refundId: { not: null } } })).toBe(0);
    const suspenseLines = await db.$queryRaw<{ total: bigint }[]>`
      SELECT coalesce(sum(e.amount), 0)::bigint AS total FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
       WHERE e.transaction_id = ${t.id}::uuid AND a.kind = 'CUSTOMER_SUSPENSE'`;
    expect(suspenseLines[0]!.total).toBe(0n);
    expect(await verifyLedger(db)).toMatchObject({ ok: true });
  });

  it('a return the operator refuses stays in suspense, FAILED with its reason, and the ledger still verifies', async () => {
    const t = await cashin('FAILED', 1500);
    const before = await suspense();
    const held = (await db.$transaction((tx) => holdLateSuccess(tx, t.id, OK)))!;
    const done = await db.$transaction((tx) =>
      completeRefund(tx, held.refund.id, { status: 'FAILED', failureReason: 'REFUND_REJECTED' }),
    );
    expect(done?.refund).toMatchObject({ status: 'FAILED', failureReason: 'REFUND_REJECTED' });
    expect(await suspense()).toBe(before + 1500n);
    expect(await verifyLedger(db)).toMatchObject({ ok: true });
  });

  it('verifyLedger finds suspense that does not match the returns not yet paid', async () => {
    await db.$executeRaw`UPDATE ledger_accounts SET balance = balance + 1 WHERE merchant_id IS NULL AND country_code = 'CI' AND kind = 'CUSTOMER_SUSPENSE'`;
    const report = await verifyLedger(db);
    expect(report.problems.map((p) => p.check)).toEqual(
      expect.arrayContaining([
        'account balance differs from its journal entries',
        'suspense differs from the late successes not yet returned',
      ]),
    );
    await db.$executeRaw`UPDATE ledger_accounts SET balance = balance - 1 WHERE merchant_id IS NULL AND country_code = 'CI' AND kind = 'CUSTOMER_SUSPENSE'`;
    expect(await verifyLedger(db)).toMatchObject({ ok: true });
  });
});
