import { completeOutbox, completeRefund, type Db } from '@mm/db';
import type { OperatorAdapter } from '@mm/operators';
import type { AfterCommit, RefundRequestJob } from '@mm/queues';

/**
 * refund-requests consumer: pays the refund back through the operator and records the answer.
 * An unreachable operator throws (BullMQ retries, then the outbox relay): the refund stays PENDING,
 * because the money may already have moved, and the retry uses the same reference, which the
 * operator dedupes. Nothing is ever marked FAILED without the operator saying so.
 */
export function executeRefundProcessor(deps: { db: Db; adapter: OperatorAdapter; afterCommit: AfterCommit }) {
  return async (payload: RefundRequestJob): Promise<void> => {
    const refund = await deps.db.refund.findUnique({ where: { id: payload.refund_id }, include: { transaction: { select: { providerReference: true } } } });
    if (!refund || refund.status !== 'PENDING') {
      await completeOutbox(deps.db, payload.outbox_id);
      return;
    }
    const result = await deps.adapter.refund({
      partnerReference: refund.providerReference,
      originalPartnerReference: refund.transaction.providerReference,
      amount: Number(refund.amount),
      currency: refund.currency,
    });
    const done = await deps.db.$transaction(async (tx) => {
      const c = await completeRefund(tx, refund.id, result.state === 'OK'
        ? { status: 'SUCCESS', providerRefundId: result.providerRefundId }
        : { status: 'FAILED', failureReason: result.reason });
      await completeOutbox(tx, payload.outbox_id);
      return c;
    });
    if (!done) return;
    // The refund's webhook and, when it completed the refunds, the cash-in's move to REVERSED.
    await deps.afterCommit.run([
      done.reversed
        ? { ...done.reversed, outbox: done.outbox }
        : { transaction: { id: refund.transactionId, status: 'SUCCESS' }, outbox: done.outbox },
    ]);
  };
}
