import type { Job } from 'bullmq';
import { completeOutbox } from '@mm/db/outbox';
import { type Db, type Tx } from '@mm/db';
import {
  applyOperatorResult,
  moveToNextCheck,
  nextPendingCheck,
  pendingCauseOf,
  pendingForCheck,
  transition,
  type TransitionRequest,
} from '@mm/db/payments';
import { pushWasTaken } from '@mm/domain';
import { OperatorUnavailableError, paymentLookupOf, type OperatorAdapters } from '@mm/operators';
import { isFinalAttempt, type AfterCommit, type ExpiryCheckJob } from '@mm/queues';
import type { Logger } from '@mm/observability';
import { commitStep } from '@mm/worker-runtime';

/**
 * What the expiry check decides when the operator gave no result. A push whose outcome was unknown (the
 * bridge never had its acknowledgement: PENDING_CAUSES.outcomeUnknown) that the operator says it never
 * received was never sent: FAILED / OPERATOR_UNAVAILABLE, as decisions 4 says. Anything else expires: a push
 * the operator took and now does not find (MTN forgets a request; it gives no session id to tell by) may
 * still be paid, and a late payment credits an EXPIRED cash-in. "Taken" is what the bridge recorded, not a
 * session id: MTN never gives one, and Orange mp's pay token is stored before the push is even sent.
 */
function expiryMove(transactionId: string, status: { found: boolean } | null, pushTaken: boolean): TransitionRequest {
  if (status && !status.found && !pushTaken) {
    return {
      transactionId,
      to: 'FAILED',
      cause: 'expiry-check:operator-unknown',
      patch: { failureCode: 'OPERATOR_UNAVAILABLE' },
    };
  }
  return { transactionId, to: 'EXPIRED', cause: 'expiry' };
}

/**
 * A PENDING cash-in whose confirmation delay ran out: ask the operator once more (decisions 4). A
 * decided result is applied as it is; only a still-pending one becomes EXPIRED. If the operator stays
 * unreachable through every retry, the cash-in expires anyway: a late confirmation can still move it
 * EXPIRED -> SUCCESS, so no money is lost by deciding. A poll decides nothing by itself: a cash-in it
 * leaves PENDING gets its next check (the next poll, or the expiry) on the same outbox row.
 */
export function expiryChecksHandler(deps: {
  db: Db;
  adapters: OperatorAdapters;
  afterCommit: AfterCommit;
  logger: Logger;
}) {
  return async (payload: ExpiryCheckJob, job: Job): Promise<void> => {
    // Most checks find their cash-in ended: their row is done in the same statement.
    const t = await pendingForCheck(deps.db, payload.transaction_id, payload.outbox_id);
    if (!t) return;
    const { outbox_id: outboxId, ...check } = payload;
    const next = nextPendingCheck(check, t.expiresAt ?? new Date());
    // Still PENDING after this poll: its row moves on to the next check (unless another run of this
    // poll moved it already: then nothing), or is done when it was a poll of its own.
    const untilNext = async (tx: Tx) => {
      if (!next) {
        await completeOutbox(tx, outboxId);
        return { outbox: [] };
      }
      const moved = await moveToNextCheck(tx, outboxId, check, next);
      return { outbox: moved ? [moved] : [] };
    };
    let status = null;
    try {
      status = await (await deps.adapters.adapterFor(t)).queryStatus(paymentLookupOf(t));
    } catch (err) {
      // A poll that cannot reach the operator just gives way to the next check.
      if (payload.kind === 'poll' && isFinalAttempt(job)) {
        await commitStep(deps, untilNext);
        return;
      }
      if (!isFinalAttempt(job)) throw err;
      deps.logger.warn(
        { err, transaction_id: t.id, unavailable: err instanceof OperatorUnavailableError },
        'no operator answer for the final status check; expiring',
      );
    }
    // Only when the operator does not know the payment: what the bridge recorded of its push decides.
    const pushTaken =
      payload.kind === 'expiry' && status && !status.found ? pushWasTaken(await pendingCauseOf(deps.db, t.id)) : true;
    await commitStep(deps, async (tx) => {
      const decided = status?.found
        ? await applyOperatorResult(
            tx,
            t.id,
            status,
            `${payload.kind === 'poll' ? 'status-poll' : 'expiry-check'}:operator-result`,
          )
        : null;
      if (decided) {
        await completeOutbox(tx, outboxId);
        return decided;
      }
      // A poll that finds the customer still deciding changes nothing; only the expiry check decides.
      if (payload.kind === 'poll') return untilNext(tx);
      const expired = await transition(tx, expiryMove(t.id, status, pushTaken));
      await completeOutbox(tx, outboxId);
      return expired;
    });
  };
}
