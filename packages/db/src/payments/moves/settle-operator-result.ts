import { isConfirmedPayment, type OperatorResult } from '@mm/domain';
import type { Tx } from '../../database/index.js';
import { holdLateSuccess, type HeldLateSuccess } from '../refunds/late-success-return.js';
import { AMOUNT_DIFFERS, applyChecked } from './apply-operator-result.js';
import type { LockedTransaction, TransitionOutcome } from './transition.js';

export type SettledResult =
  /** The cash-in moved (a late success after EXPIRED credits the merchant, decisions 4). */
  | (TransitionOutcome & { held: null; moved: true; amountDiffers?: false })
  /** The cash-in is FAILED: the money goes back to the customer (decisions 13). */
  | { outbox: HeldLateSuccess['outbox']; held: HeldLateSuccess; moved: false; amountDiffers?: false }
  /**
   * The operator confirmed a payment of another amount or currency than the cash-in's: nothing moved, no
   * money held; a reconciliation case records it for a person.
   */
  | { outbox: []; held: null; moved: false; amountDiffers: true };

/**
 * What the operator decided about a cash-in, with every rule already decided: through the state machine,
 * and when it refuses a confirmed payment because the cash-in is FAILED, the return of its money to the
 * customer, in the same database transaction. Null when nothing changes (still pending, a repeat, a
 * return already started); a confirmation of another amount than the cash-in's moves nothing and keeps its
 * reconciliation case (amountDiffers). The one place the bridge (callbacks, status answers) and reconciliation
 * apply an operator's word. The cash-in is named by its id, or given as the row the caller locked (lockForMove).
 */
export async function settleOperatorResult(
  tx: Tx,
  target: string | LockedTransaction,
  result: OperatorResult & { providerSessionId?: string | null },
  cause: string,
): Promise<SettledResult | null> {
  const moved = await applyChecked(tx, target, result, cause);
  if (moved === AMOUNT_DIFFERS) return { outbox: [], held: null, moved: false, amountDiffers: true };
  if (moved) return { ...moved, held: null, moved: true };
  if (!isConfirmedPayment(result)) return null;
  const held = await holdLateSuccess(tx, typeof target === 'string' ? target : target.id, result);
  return held && { outbox: held.outbox, held, moved: false };
}
