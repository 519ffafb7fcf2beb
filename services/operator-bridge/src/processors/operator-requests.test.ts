import type { Db } from '@mm/db';
import { createCashin } from '@mm/db/payments';
import type { OperatorResult } from '@mm/domain';
import { OperatorRefusedError, OperatorUnavailableError, type OperatorAdapter } from '@mm/operators';
import { failingOperator, oneAdapter } from '@mm/operators/testing';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing';
import { operatorRequestsHandler } from './operator-requests.js';
import { noEffects, jobAt } from '@mm/worker-runtime/testing';

// A slow operator: every push times out on our side, but it registered the push and its status query
// answers (or says it never saw it).
function slowOperator(status: OperatorResult & { found: boolean }): OperatorAdapter {
  return { ...failingOperator(new OperatorUnavailableError('timeout')), queryStatus: async () => status };
}
const known = (providerState: OperatorResult['providerState'], providerTxnStatus: string | null) => ({
  found: true,
  providerState,
  providerTxnStatus,
  providerTxId: providerState === 'OK' ? 'MP1' : null,
  failureReason: null,
});

describe('push processor on its last attempt', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function newCashin(order: string) {
    const r = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000055',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    return { id: r.transaction.id, outboxId: r.outbox[0]!.id };
  }

  const run = (adapter: OperatorAdapter, attemptsMade: number, t: { id: string; outboxId: string }) =>
    operatorRequestsHandler({
      db,
      adapters: oneAdapter(adapter),
      afterCommit: noEffects,
      callbackUrl: () => 'http://bridge/cb',
      confirmationTimeoutMs: 1000,
    })({ outbox_id: t.outboxId, transaction_id: t.id }, jobAt(attemptsMade));

  it('lets BullMQ retry before the last attempt (the transaction stays INITIATED)', async () => {
    const t = await newCashin('retry-1');
    await expect(run(failingOperator(new OperatorUnavailableError('down')), 1, t)).rejects.toThrow('down');
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('INITIATED');
  });

  it('leaves a push nobody can vouch for (no answer to the pushes nor to the status query) to the expiry check, never FAILED on a guess', async () => {
    const t = await newCashin('unavailable-1');
    await run(failingOperator(new OperatorUnavailableError('down')), 3, t);
    const after = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
    expect(after).toMatchObject({ status: 'PENDING', failureCode: null, providerSessionId: null });
    expect(after.expiresAt).toBeInstanceOf(Date);
    expect(
      (await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'PENDING' } })).cause,
    ).toBe('push-timeout:outcome-unknown');
    expect(
      await db.outbox.count({
        where: { topic: 'expiry-checks', completedAt: null, payload: { path: ['transaction_id'], equals: t.id } },
      }),
    ).toBe(1);
    expect((await db.outbox.findUniqueOrThrow({ where: { id: t.outboxId } })).completedAt).toBeInstanceOf(Date);
  });

  it('fails the cash-in OPERATOR_REJECTED when the operator kept refusing the request, instead of retrying for ever', async () => {
    const t = await newCashin('refused-1');
    await run(failingOperator(new OperatorRefusedError('push', 400, '{"error":"invalid_request"}')), 3, t);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'FAILED',
      failureCode: 'OPERATOR_REJECTED',
    });
    expect((await db.outbox.findUniqueOrThrow({ where: { id: t.outboxId } })).completedAt).toBeInstanceOf(Date);
  });

  it('fails a refused push at its first attempt: a 4xx about the request will not change on retry', async () => {
    const t = await newCashin('refused-first');
    await run(failingOperator(new OperatorRefusedError('push', 422, '{"error":"invalid_msisdn"}')), 0, t);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'FAILED',
      failureCode: 'OPERATOR_REJECTED',
    });
    expect((await db.outbox.findUniqueOrThrow({ where: { id: t.outboxId } })).completedAt).toBeInstanceOf(Date);
  });

  it('never fails a payment on an error that is not the operator refusing it (a bug of ours): the outcome is unknown, PENDING for the expiry check', async () => {
    const t = await newCashin('bug-1');
    // A TypeError from our own code on every push and status call: nobody refused anything.
    await run(failingOperator(new TypeError("Cannot read properties of undefined (reading 'session_id')")), 3, t);
    const after = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
    expect(after).toMatchObject({ status: 'PENDING', failureCode: null });
    expect(
      (await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'PENDING' } })).cause,
    ).toBe('push-timeout:outcome-unknown');
    expect(
      await db.outbox.count({
        where: { topic: 'expiry-checks', completedAt: null, payload: { path: ['transaction_id'], equals: t.id } },
      }),
    ).toBe(1);
  });

  it('a bug on the push whose status the operator knows adopts that status, like a timeout', async () => {
    const t = await newCashin('bug-known-1');
    await run({ ...failingOperator(new TypeError('bug')), queryStatus: async () => known('OK', '200') }, 3, t);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'SUCCESS',
      providerTxId: 'MP1',
    });
  });

  it('a status answer OK without its 200 after the last push is not a success: PENDING, waiting for a confirmation', async () => {
    const t = await newCashin('slow-ok-null-1');
    await run(slowOperator(known('OK', null)), 3, t);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      providerTxId: null,
    });
    expect((await db.outbox.findUniqueOrThrow({ where: { id: t.outboxId } })).completedAt).toBeInstanceOf(Date);
  });

  it('adopts a push the operator registered although every push call timed out: PENDING with its expiry', async () => {
    const t = await newCashin('slow-pending-1');
    await run(slowOperator(known('PENDING', null)), 3, t);
    const after = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
    expect(after).toMatchObject({ status: 'PENDING', providerState: 'PENDING', failureCode: null });
    expect(after.expiresAt).toBeInstanceOf(Date);
    expect(
      await db.outbox.count({ where: { topic: 'expiry-checks', payload: { path: ['transaction_id'], equals: t.id } } }),
    ).toBe(1);
    expect(
      (await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'PENDING' } })).cause,
    ).toBe('push-timeout:operator-ack');
  });

  it('applies the result of a push the operator already decided although every push call timed out', async () => {
    const t = await newCashin('slow-ok-1');
    await run(slowOperator(known('OK', '200')), 3, t);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'SUCCESS',
      providerTxId: 'MP1',
    });
    expect((await db.outbox.findUniqueOrThrow({ where: { id: t.outboxId } })).completedAt).toBeInstanceOf(Date);
  });

  it('fails OPERATOR_UNAVAILABLE when the operator answers the status query that it never saw the push', async () => {
    const t = await newCashin('slow-unknown-1');
    await run(
      slowOperator({
        found: false,
        providerState: 'PENDING',
        providerTxnStatus: null,
        providerTxId: null,
        failureReason: null,
      }),
      3,
      t,
    );
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'FAILED',
      failureCode: 'OPERATOR_UNAVAILABLE',
    });
  });
});
