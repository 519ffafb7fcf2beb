import { outcomeOfOperatorResult, type OperatorResult } from '@mm/domain';
import type { Tx } from '../client.js';
import { transition, type TransitionOutcome } from './transition.js';

/**
 * Applies what the operator says about a cash-in (callback, status query) through the state machine.
 * Returns null when it decides nothing: still pending, the transaction already moved on (duplicate or
 * out-of-order result), or it is not a cash-in: a cash-out is decided only by the answer to our own
 * disbursement call, so a callback naming its reference cannot fail it and release its reservation.
 */
export async function applyOperatorResult(
  tx: Tx,
  transactionId: string,
  result: OperatorResult & { providerSessionId?: string | null },
  cause: string,
): Promise<TransitionOutcome | null> {
  const outcome = outcomeOfOperatorResult(result);
  if (!outcome) return null;
  return transition(tx, {
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
  });
}
