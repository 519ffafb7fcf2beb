import { outcomeOfOperatorResult, type OperatorResult } from '@mm/domain';
import type { Db, Tx } from '../client.js';
import {
  moveIfUnchanged, moveLocked, transition, type LockedTransaction, type SeenTransaction, type TransitionOutcome, type TransitionRequest,
} from './transition.js';

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
  const req = operatorResultMove(typeof target === 'string' ? target : target.id, result, cause);
  if (!req) return null;
  return typeof target === 'string' ? transition(tx, req) : moveLocked(tx, target, req);
}

/**
 * applyOperatorResult() on a cash-in as this process last saw it (the row its acknowledgement returned),
 * in one autocommit statement without its lock taken first: 'changed' when the row is no longer that
 * one (nothing written), for the caller to apply the result under the lock as usual.
 */
export async function applyOperatorResultIfUnchanged(
  db: Db,
  seen: SeenTransaction,
  result: OperatorResult & { providerSessionId?: string | null },
  cause: string,
): Promise<TransitionOutcome | null | 'changed'> {
  const req = operatorResultMove(seen.id, result, cause);
  return req ? moveIfUnchanged(db, seen, req) : null;
}

/** The move an operator's result asks of a cash-in, null when it decides nothing (still pending). */
function operatorResultMove(transactionId: string, result: OperatorResult & { providerSessionId?: string | null }, cause: string): TransitionRequest | null {
  const outcome = outcomeOfOperatorResult(result);
  if (!outcome) return null;
  return {
    transactionId,
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
}
