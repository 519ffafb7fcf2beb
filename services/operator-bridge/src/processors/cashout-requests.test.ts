import type { Db } from '@mm/db';
import { balancesOf } from '@mm/db/ledger';
import { createCashin, createCashout, transition } from '@mm/db/payments';
import { Registry } from '@mm/observability';
import { OperatorPendingError, OperatorRefusedError, OperatorUnavailableError } from '@mm/operators';
import { failingOperator, oneAdapter } from '@mm/operators/testing';
import { createMerchantTestDatabase, sumBy, type MerchantTestDatabase } from '@mm/testing';
import { cashoutRequestsHandler } from './cashout-requests.js';
import { noEffects } from '@mm/worker-runtime/testing';

describe('cash-out refused by the operator', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db, merchantId } = fixture);
    // Funds to pay out: one captured cash-in.
    const c = await createCashin(db, {
      merchantId,
      merchantOrderId: 'funds',
      amount: 100_000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'funds',
    });
    if (c.kind !== 'created') throw new Error('not created');
    await db.$transaction(async (tx) => {
      for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const)
        await transition(tx, { transactionId: c.transaction.id, to, cause: 'test' });
    });
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function newCashout(order: string) {
    const r = await createCashout(db, {
      merchantId,
      merchantOrderId: order,
      amount: 3000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000002',
      reason: null,
      notifyUrl: null,
      requestFingerprint: order,
      approval: 'none',
    });
    if (r.kind !== 'created') throw new Error('not created');
    return { id: r.transaction.id, outboxId: r.outbox.find((o) => o.topic === 'cashout-requests')!.id };
  }
  const available = async () => (await balancesOf(db, merchantId)).find((b) => b.countryCode === 'CI')!.available;

  it("is FAILED for good with the operator's reason, its reservation given back, and counted", async () => {
    const before = await available();
    const c = await newCashout('refused-cashout');
    expect(await available()).toBe(before - 3000n);
    const metrics = new Registry();
    const refused = new OperatorRefusedError('disbursement', 422, '{"error":"invalid_msisdn"}');
    await cashoutRequestsHandler({
      db,
      adapters: oneAdapter(failingOperator(refused)),
      afterCommit: noEffects,
      metrics,
    })({ outbox_id: c.outboxId, transaction_id: c.id });

    expect(await db.transaction.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      status: 'FAILED',
      failureCode: 'OPERATOR_REJECTED',
      failureReason: 'operator refused the request (422): {"error":"invalid_msisdn"}',
    });
    expect(await available()).toBe(before);
    expect((await db.outbox.findUniqueOrThrow({ where: { id: c.outboxId } })).completedAt).toBeInstanceOf(Date);
    expect(sumBy(await metrics.metrics(), 'mm_operator_refusals_total', (l) => l.operation!)).toEqual({ cashout: 1 });
  });

  it.each([
    ['operator unreachable', new OperatorUnavailableError('timeout')],
    ['a bug of ours', new TypeError('x is undefined')],
  ])(
    'stays INITIATED, its money reserved, and throws (retried, then parked) on an error that is not a refusal: %s',
    async (what, error) => {
      const c = await newCashout(`unknown-${what}`);
      const reserved = await available();
      const metrics = new Registry();
      await expect(
        cashoutRequestsHandler({ db, adapters: oneAdapter(failingOperator(error)), afterCommit: noEffects, metrics })({
          outbox_id: c.outboxId,
          transaction_id: c.id,
        }),
      ).rejects.toBe(error);
      expect((await db.transaction.findUniqueOrThrow({ where: { id: c.id } })).status).toBe('INITIATED');
      expect(await available()).toBe(reserved);
      expect((await db.outbox.findUniqueOrThrow({ where: { id: c.outboxId } })).completedAt).toBeNull();
    },
  );

  it('a payout the operator has but has not decided (OperatorPendingError) stays INITIATED, reserved, and is asked again later without a failed attempt', async () => {
    const c = await newCashout('undecided-cashout');
    const reserved = await available();
    const before = await db.outbox.findUniqueOrThrow({ where: { id: c.outboxId } });
    const undecided = failingOperator(new OperatorPendingError('disbursement', 'payout-1'));
    await cashoutRequestsHandler({
      db,
      adapters: oneAdapter(undecided),
      afterCommit: noEffects,
      metrics: new Registry(),
    })({ outbox_id: c.outboxId, transaction_id: c.id });
    expect((await db.transaction.findUniqueOrThrow({ where: { id: c.id } })).status).toBe('INITIATED');
    expect(await available()).toBe(reserved);
    const after = await db.outbox.findUniqueOrThrow({ where: { id: c.outboxId } });
    expect(after).toMatchObject({ completedAt: null, failedRuns: 0, run: before.run + 1 });
    expect(after.availableAt.getTime()).toBeGreaterThan(Date.now());
  });
});
