import type { Db } from '@mm/db';
import { balancesOf } from '@mm/db/ledger';
import { createCashin, createRefund, holdLateSuccess, transition } from '@mm/db/payments';
import { Registry } from '@mm/observability';
import { OperatorPendingError, OperatorRefusedError, OperatorUnavailableError } from '@mm/operators';
import { failingOperator, oneAdapter } from '@mm/operators/testing';
import type { AfterCommit } from '@mm/queues';
import { createMerchantTestDatabase, sumBy, type MerchantTestDatabase } from '@mm/testing';
import { refundRequestsHandler } from './refund-requests.js';

describe('refund refused by the operator', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  const announced: unknown[] = [];
  const afterCommit = {
    run: async (changes: unknown[]) => {
      announced.push(...changes);
    },
  } as unknown as AfterCommit;

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function pendingRefund(order: string) {
    const c = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount: 5000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (c.kind !== 'created') throw new Error('not created');
    await db.$transaction(async (tx) => {
      for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const)
        await transition(tx, { transactionId: c.transaction.id, to, cause: 'test' });
    });
    const r = await createRefund(db, {
      merchantId,
      transactionId: c.transaction.id,
      amount: 2000,
      reason: null,
      idempotencyKey: null,
      requestFingerprint: `${order}-r`,
    });
    if (r.kind !== 'created') throw new Error('not created');
    return { refund: r.refund, outboxId: r.outbox[0]!.id, transactionId: c.transaction.id };
  }
  const available = async () => (await balancesOf(db, merchantId)).find((b) => b.countryCode === 'CI')!.available;

  it("is FAILED for good with the operator's reason, its reservation released, its webhook recorded, and counted", async () => {
    const { refund, outboxId, transactionId } = await pendingRefund('refused-refund');
    const availableBefore = await available();
    const metrics = new Registry();
    const refused = new OperatorRefusedError('refund', 404, '{"error":"unknown_original_reference"}');
    await refundRequestsHandler({ db, adapters: oneAdapter(failingOperator(refused)), afterCommit, metrics })({
      outbox_id: outboxId,
      refund_id: refund.id,
    });

    expect(await db.refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: 'FAILED',
      failureReason: 'operator refused the request (404): {"error":"unknown_original_reference"}',
    });
    expect(await db.transaction.findUniqueOrThrow({ where: { id: transactionId } })).toMatchObject({
      status: 'SUCCESS',
      refundReservedAmount: 0n,
      refundedAmount: 0n,
    });
    expect(await available()).toBe(availableBefore + 2000n);
    expect((await db.outbox.findUniqueOrThrow({ where: { id: outboxId } })).completedAt).toBeInstanceOf(Date);
    expect(await db.webhookEvent.count({ where: { refundId: refund.id, eventType: 'refund.status_changed' } })).toBe(1);
    expect(sumBy(await metrics.metrics(), 'mm_operator_refusals_total', (l) => l.operation!)).toEqual({ refund: 1 });
    // The cash-in's status did not change: nothing is announced for it (no made-up status).
    expect(announced.at(-1)).toEqual({ outbox: expect.any(Array) });
  });

  it.each([
    ['operator unreachable', new OperatorUnavailableError('timeout')],
    ['a bug of ours', new TypeError('x is undefined')],
    ['operator refusing our credentials', new Error('operator refused our credentials for the refund: 401 {}')],
  ])('stays PENDING and throws (retried, then parked) on an error that is not a refusal: %s', async (what, error) => {
    const { refund, outboxId } = await pendingRefund(`unknown-${what}`);
    const availableBefore = await available();
    const metrics = new Registry();
    await expect(
      refundRequestsHandler({ db, adapters: oneAdapter(failingOperator(error)), afterCommit, metrics })({
        outbox_id: outboxId,
        refund_id: refund.id,
      }),
    ).rejects.toBe(error);
    expect((await db.refund.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe('PENDING');
    expect((await db.outbox.findUniqueOrThrow({ where: { id: outboxId } })).completedAt).toBeNull();
    expect(await available()).toBe(availableBefore);
    expect(sumBy(await metrics.metrics(), 'mm_operator_refusals_total', (l) => l.operation!)).toEqual({});
  });

  it('an operator that has the refund but has not decided it (OperatorPendingError) is asked again later: PENDING, no failed attempt, the row rescheduled', async () => {
    const { refund, outboxId } = await pendingRefund('refund-undecided');
    const before = await db.outbox.findUniqueOrThrow({ where: { id: outboxId } });
    const metrics = new Registry();
    announced.length = 0;
    const undecided = failingOperator(new OperatorPendingError('refund', 'mtn-ref-1'));
    await refundRequestsHandler({ db, adapters: oneAdapter(undecided), afterCommit, metrics })({
      outbox_id: outboxId,
      refund_id: refund.id,
    });
    expect((await db.refund.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe('PENDING');
    const after = await db.outbox.findUniqueOrThrow({ where: { id: outboxId } });
    expect(after).toMatchObject({ completedAt: null, failedRuns: 0, run: before.run + 1 });
    expect(after.availableAt.getTime()).toBeGreaterThan(Date.now());
    // The same row published again (a new job id from its run), delayed until it is due.
    expect(announced).toEqual([{ outbox: [expect.objectContaining({ id: outboxId, run: before.run + 1 })] }]);
  });
});

describe('return of a late success (decisions 13)', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  const afterCommit = { run: async () => undefined } as unknown as AfterCommit;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function heldReturn(order: string) {
    const c = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount: 3000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000013',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (c.kind !== 'created') throw new Error('not created');
    await db.$transaction(async (tx) => {
      await transition(tx, { transactionId: c.transaction.id, to: 'INITIATED', cause: 'test' });
      await transition(tx, {
        transactionId: c.transaction.id,
        to: 'FAILED',
        cause: 'test',
        patch: { failureCode: 'OPERATOR_UNAVAILABLE' },
      });
    });
    const held = await db.$transaction((tx) =>
      holdLateSuccess(tx, c.transaction.id, { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'MPL' }),
    );
    return { refund: held!.refund, outboxId: held!.outbox[0]!.id, transactionId: c.transaction.id };
  }
  const suspense = async () =>
    (await db.ledgerAccount.findFirst({ where: { merchantId: null, countryCode: 'CI', kind: 'CUSTOMER_SUSPENSE' } }))
      ?.balance;
  const counted = async (metrics: Registry) =>
    sumBy(await metrics.metrics(), 'mm_late_success_returns_total', (l) => l.outcome!);

  it("paid back through the operator's refund: suspense to zero, no webhook, the cash-in unchanged, counted as returned", async () => {
    const { refund, outboxId, transactionId } = await heldReturn('late-returned');
    const before = await db.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    const asked: unknown[] = [];
    const operator = {
      ...failingOperator(new Error('unused')),
      refund: async (req: unknown) => {
        asked.push(req);
        return { state: 'OK' as const, providerRefundId: 'RF77' };
      },
    };
    const metrics = new Registry();
    const run = refundRequestsHandler({ db, adapters: oneAdapter(operator), afterCommit, metrics });
    await run({ outbox_id: outboxId, refund_id: refund.id });
    await run({ outbox_id: outboxId, refund_id: refund.id });
    expect(asked).toEqual([
      expect.objectContaining({
        partnerReference: refund.providerReference,
        originalPartnerReference: before.providerReference,
        amount: 3000,
      }),
    ]);
    expect(await db.refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: 'SUCCESS',
      providerRefundId: 'RF77',
    });
    expect(await suspense()).toBe(0n);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: transactionId } })).toEqual(before);
    expect(await db.webhookEvent.count({ where: { transactionId } })).toBe(1);
    expect(await counted(metrics)).toEqual({ returned: 1, failed: 0 });
  });

  it('refused by the operator: FAILED with its reason, left in suspense for a person, counted as failed', async () => {
    const { refund, outboxId } = await heldReturn('late-refused');
    const metrics = new Registry();
    const refused = new OperatorRefusedError('refund', 409, '{"error":"not_refundable"}');
    await refundRequestsHandler({ db, adapters: oneAdapter(failingOperator(refused)), afterCommit, metrics })({
      outbox_id: outboxId,
      refund_id: refund.id,
    });
    expect(await db.refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: 'FAILED',
      failureReason: expect.stringContaining('409'),
    });
    expect(await suspense()).toBe(3000n);
    expect(await counted(metrics)).toEqual({ returned: 0, failed: 1 });
  });
});
