import { applyOperatorResult, type Db } from '@mm/db';
import type { AfterCommit, OperatorResultJob } from '@mm/queues';
import type { Logger } from '@mm/observability';

/** operator-results consumer: a callback or status answer becomes a state transition (or nothing). */
export function applyOperatorResultProcessor(deps: { db: Db; afterCommit: AfterCommit; logger: Logger }) {
  return async (payload: OperatorResultJob): Promise<void> => {
    const t = await deps.db.transaction.findUnique({ where: { providerReference: payload.provider_reference }, select: { id: true } });
    if (!t) {
      deps.logger.warn({ providerReference: payload.provider_reference }, 'operator result for an unknown reference ignored');
      return;
    }
    const outcome = await deps.db.$transaction((tx) =>
      applyOperatorResult(tx, t.id, {
        providerState: payload.provider_state,
        providerTxnStatus: payload.provider_txn_status,
        providerTxId: payload.provider_tx_id,
        failureReason: payload.failure_reason,
        providerSessionId: payload.provider_session_id,
      }, `operator-result:${payload.source}`),
    );
    await deps.afterCommit.run([outcome]);
  };
}
