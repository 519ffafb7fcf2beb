import { outcomeOfOperatorResult, type OperatorResult } from '@mm/domain';
import type { Tx } from '../client.js';
import { moveLocked, transition, type LockedTransaction, type TransitionOutcome, type TransitionRequest } from './transition.js';

/**
 * Applies what the operator says about a cash-in (callback, status query) through the state machine.
 * Returns null when it decides nothing: still pending, the transaction already moved on (duplicate or
 * out-of-order result), or it is not a cash-in: a cash-out is decided only by the answer to our own
 * disbursement call, so a callback naming its reference cannot fail it and release its reservation.
 * The cash-in is named by its id, or given as the row the caller locked (lockForMove).
 */
export async function applyOperatorResult(
  tx: Tx,
  target: string | LockedTransaction,
  result: OperatorResult & { providerSessionId?: string | null },
  cause: string,
): Promise<TransitionOutcome | null> {
  const outcome = outcomeOfOperatorResult(result);
  if (!outcome) return null;
  const req: TransitionRequest = {
    transactionId: typeof target === 'string' ? target : target.id,
    to: outcome.to,
    ofType: 'CASHIN',
    cause,
    patch: {
      providerState: result.providerState,
      providerTxnStatus: result.providerTxnStatus,
      providerTxId: result.providerTxId,
      failureCode: outcome.failureCode,
      failureReason: outcome.failureReason,
      ...(result.providerSessionId ? { providerSessionId: result.providerSessionId } : {}),
    },
  };
  return typeof target === 'string' ? transition(tx, req) : moveLocked(tx, target, req);
}
