import { completeOutbox } from '@mm/db/outbox';
import { type Db } from '@mm/db';
import { completeRefund, LATE_SUCCESS_ORIGIN } from '@mm/db/payments';
import type { Registry } from '@mm/observability';
import {
  OperatorPendingError,
  OperatorRefusedError,
  operatorRefusals,
  paymentLookupOf,
  type OperatorAdapters,
  type RefundResult,
} from '@mm/operators';
import type { AfterCommit, RefundRequestJob } from '@mm/queues';
import { askAgainLater, commitStep, lateSuccessReturns } from '@mm/worker-runtime';

/**
 * refund-requests consumer: pays the refund back through the operator and records the answer.
 * An operator that has the refund but has not decided it (OperatorPendingError: MTN's 202) is asked
 * again later, the refund still PENDING (askAgainLater: not a failed attempt, never parked for it).
 * An unreachable operator, or any error that is not the operator's word, throws (BullMQ retries, then
 * the outbox relay, then the job is parked): the refund stays PENDING, because the money may already
 * have moved, and a retry uses the same reference, which the operator dedupes. It is FAILED only when
 * the operator says so: a FAILED answer, or a refusal of the request itself (a 4xx about it), which
 * will not change on retry and is counted in mm_operator_refusals_total. The return of a late success
 * (origin LATE_SUCCESS, decisions 13) is paid the same way; only what its answer records differs.
 */
export function refundRequestsHandler(deps: {
  db: Db;
  adapters: OperatorAdapters;
  afterCommit: AfterCommit;
  metrics: Registry;
}) {
  const refusals = operatorRefusals(deps.metrics);
  const lateReturns = lateSuccessReturns(deps.metrics, ['returned', 'failed']);
  return async (payload: RefundRequestJob): Promise<void> => {
    const refund = await deps.db.refund.findUnique({
      where: { id: payload.refund_id },
      include: { transaction: true },
    });
    if (!refund || refund.status !== 'PENDING') {
      await completeOutbox(deps.db, payload.outbox_id);
      return;
    }
    const adapter = await deps.adapters.adapterFor(refund.transaction);
    const result: RefundResult | null = await adapter
      .refund({
        partnerReference: refund.providerReference,
        originalPartnerReference: refund.transaction.providerReference,
        amount: Number(refund.amount),
        currency: refund.currency,
        // A late success's return names the payment the operator made after we had failed it: the cash-in
        // row itself never learnt its operator id.
        original: {
          ...paymentLookupOf(refund.transaction),
          providerTxId: refund.originalProviderTxId ?? refund.transaction.providerTxId,
        },
      })
      .catch((err: unknown) => {
        if (err instanceof OperatorPendingError) return null;
        if (!(err instanceof OperatorRefusedError)) throw err;
        refusals.inc({ operation: 'refund' });
        return { state: 'FAILED', reason: err.reason } as const;
      });
    if (result === null) {
      await askAgainLater(deps, payload.outbox_id);
      return;
    }
    let decided = false;
    await commitStep(
      deps,
      async (tx) => {
        const done = await completeRefund(
          tx,
          refund.id,
          result.state === 'OK'
            ? { status: 'SUCCESS', providerRefundId: result.providerRefundId }
            : { status: 'FAILED', failureReason: result.reason },
        );
        decided = done !== null;
        // The refund's webhook and, when it completed the refunds, the cash-in's move to REVERSED (the only
        // change of the transaction's status a refund makes, so the only one announced).
        if (!done) return null;
        return done.reversed ? { ...done.reversed, outbox: done.outbox } : { outbox: done.outbox };
      },
      { completes: payload.outbox_id },
    );
    // A late success's return (decisions 13) refused by the operator stays in suspense: a person must act.
    if (decided && refund.origin === LATE_SUCCESS_ORIGIN)
      lateReturns.inc({ outcome: result.state === 'OK' ? 'returned' : 'failed' });
  };
}
