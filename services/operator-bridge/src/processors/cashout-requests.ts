import { completeOutbox } from '@mm/db/outbox';
import { type Db } from '@mm/db';
import { transition } from '@mm/db/payments';
import type { Registry } from '@mm/observability';
import {
  OperatorPendingError,
  OperatorRefusedError,
  operatorRefusals,
  type DisbursementResult,
  type OperatorAdapters,
} from '@mm/operators';
import type { AfterCommit, CashoutRequestJob } from '@mm/queues';
import { askAgainLater, commitStep } from '@mm/worker-runtime';

/**
 * cashout-requests consumer: CREATED -> INITIATED, pay through the operator, then SUCCESS or FAILED
 * (which pays out or gives back the reservation). An unreachable operator, or any error that is not
 * the operator's word, throws (BullMQ retries, then the outbox relay, then the job is parked): the
 * cash-out stays INITIATED, because the money may already have moved (an operator that has the payout
 * but has not decided it, OperatorPendingError, is asked again later: askAgainLater), and a retry uses the same
 * reference, which the operator dedupes. It is FAILED only when the operator says so: a FAILED answer,
 * or a refusal of the request itself (a 4xx about it), counted in mm_operator_refusals_total.
 */
export function cashoutRequestsHandler(deps: {
  db: Db;
  adapters: OperatorAdapters;
  afterCommit: AfterCommit;
  metrics: Registry;
}) {
  const refusals = operatorRefusals(deps.metrics);
  return async (payload: CashoutRequestJob): Promise<void> => {
    let t = await deps.db.transaction.findUnique({ where: { id: payload.transaction_id } });
    if (t?.type === 'CASHOUT' && t.status === 'CREATED') {
      const moved = await commitStep(deps, (tx) =>
        transition(tx, { transactionId: payload.transaction_id, to: 'INITIATED', cause: 'cashout-request' }),
      );
      t = moved?.transaction ?? (await deps.db.transaction.findUnique({ where: { id: payload.transaction_id } }));
    }
    if (!t || t.type !== 'CASHOUT' || t.status !== 'INITIATED') {
      await completeOutbox(deps.db, payload.outbox_id);
      return;
    }
    const adapter = await deps.adapters.adapterFor(t);
    const result: DisbursementResult | null = await adapter
      .disburse({
        partnerReference: t.providerReference,
        msisdn: t.msisdn,
        amount: Number(t.amount),
        currency: t.currency,
        reason: t.motif,
      })
      .catch((err: unknown) => {
        if (err instanceof OperatorPendingError) return null;
        if (!(err instanceof OperatorRefusedError)) throw err;
        refusals.inc({ operation: 'cashout' });
        return { state: 'FAILED', reason: err.reason } as const;
      });
    if (result === null) {
      await askAgainLater(deps, payload.outbox_id);
      return;
    }
    await commitStep(
      deps,
      (tx) =>
        transition(
          tx,
          result.state === 'OK'
            ? {
                transactionId: t.id,
                to: 'SUCCESS',
                cause: 'operator-disbursement',
                patch: { providerState: 'OK', providerTxId: result.providerTxId },
              }
            : {
                transactionId: t.id,
                to: 'FAILED',
                cause: 'operator-disbursement',
                patch: { providerState: 'FAILED', failureCode: 'OPERATOR_REJECTED', failureReason: result.reason },
              },
        ),
      { completes: payload.outbox_id },
    );
  };
}
