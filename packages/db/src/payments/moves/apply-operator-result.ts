import { confirmationDiffers, isConfirmedPayment, outcomeOfOperatorResult, type OperatorResult } from '@mm/domain';
import type { Db, Tx } from '../../database/index.js';
import { recordReportedDifference } from '../reported-difference.js';
import {
  lockForMove,
  moveIfUnchanged,
  moveLocked,
  transition,
  type LockedTransaction,
  type SeenTransaction,
  type TransitionOutcome,
  type TransitionRequest,
} from './transition.js';

type Result = OperatorResult & { providerSessionId?: string | null };

/** What applying an operator's result did when it confirmed a payment of another amount or currency than the cash-in's. */
export const AMOUNT_DIFFERS = 'amount-differs' as const;

/**
 * Applies what the operator says about a cash-in (callback, status query) through the state machine.
 * Returns null when it decides nothing: still pending, the transaction already moved on (duplicate or
 * out-of-order result), or it is not a cash-in: a cash-out is decided only by the answer to our own
 * disbursement call, so a callback naming its reference cannot fail it and release its reservation.
 * A confirmed payment whose reported amount or currency is not the cash-in's is not applied either: it
 * is kept as a reconciliation case (applyChecked). The cash-in is named by its id, or given as the row
 * the caller locked (lockForMove).
 */
export async function applyOperatorResult(
  tx: Tx,
  target: string | LockedTransaction,
  result: Result,
  cause: string,
): Promise<TransitionOutcome | null> {
  const applied = await applyChecked(tx, target, result, cause);
  return applied === AMOUNT_DIFFERS ? null : applied;
}

/**
 * applyOperatorResult, telling a confirmation of another amount apart (AMOUNT_DIFFERS): nothing moved, its
 * case recorded in the same database transaction. A result that names what the operator moved (reported)
 * and confirms a payment is held to the reconciliation's rule (confirmationDiffers) on the locked row
 * before it moves it; any other result moves as before, the row locked by transition().
 */
export async function applyChecked(
  tx: Tx,
  target: string | LockedTransaction,
  result: Result,
  cause: string,
): Promise<TransitionOutcome | null | typeof AMOUNT_DIFFERS> {
  const req = operatorResultMove(typeof target === 'string' ? target : target.id, result, cause);
  const reported = isConfirmedPayment(result) ? result.reported : null;
  if (!reported) {
    if (!req) return null;
    return typeof target === 'string' ? transition(tx, req) : moveLocked(tx, target, req);
  }
  const row = typeof target === 'string' ? await lockForMove(tx, { id: target }) : target;
  if (!row || row.type !== 'CASHIN') return null;
  if (
    confirmationDiffers(
      { reference: row.providerReference, amount: Number(row.amount), currency: row.currency },
      reported,
    )
  ) {
    await recordReportedDifference(tx, row, { providerTxId: result.providerTxId, reported });
    return AMOUNT_DIFFERS;
  }
  return req ? moveLocked(tx, row, req) : null;
}

/**
 * applyOperatorResult() on a cash-in as this process last saw it (the row its acknowledgement returned),
 * in one autocommit statement without its lock taken first: 'changed' when the row is no longer that
 * one (nothing written), for the caller to apply the result under the lock as usual. A confirmation of
 * another amount than the seen row's is 'changed' too: its case is recorded under the lock.
 */
export async function applyOperatorResultIfUnchanged(
  db: Db,
  seen: SeenTransaction,
  result: Result,
  cause: string,
): Promise<TransitionOutcome | null | 'changed'> {
  const reported = isConfirmedPayment(result) ? result.reported : null;
  if (
    reported &&
    confirmationDiffers(
      { reference: seen.providerReference, amount: Number(seen.amount), currency: seen.currency },
      reported,
    )
  )
    return 'changed';
  const req = operatorResultMove(seen.id, result, cause);
  return req ? moveIfUnchanged(db, seen, req) : null;
}

/** The move an operator's result asks of a cash-in, null when it decides nothing (still pending). */
function operatorResultMove(transactionId: string, result: Result, cause: string): TransitionRequest | null {
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
