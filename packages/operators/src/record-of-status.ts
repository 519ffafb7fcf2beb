import type { OperatorRecord, OperatorResult, ProviderState, RecordOutcome } from '@mm/domain';
import type { MovementLookup } from './operator-adapter.js';

/**
 * The interface's provider_state as a movement's outcome (@mm/domain reconciliation): OK moved the money,
 * canceled and KO moved nothing, PENDING is not decided yet.
 */
export function outcomeOfState(state: ProviderState): RecordOutcome {
  switch (state) {
    case 'OK':
      return 'SUCCESS';
    case 'canceled':
    case 'KO':
      return 'FAILED';
    default:
      return 'PENDING';
  }
}

/**
 * A status answer as the operator's record of one of our movements (recordOf of the operators without a
 * list). `reported` is the amount and currency the answer itself gave; without it (Orange WebPay's status
 * names none) the movement's own are used, so such a record can prove the outcome but never the amount.
 * The reference is ours: the operator was asked by it (or by the id it gave for it) and answered for it.
 */
export function recordFromStatus(
  movement: MovementLookup,
  result: OperatorResult,
  reported?: { amount: number; currency: string },
): OperatorRecord {
  return {
    kind: movement.kind,
    reference: movement.reference,
    operatorTxId: result.providerTxId,
    amount: reported?.amount ?? movement.amount,
    currency: reported?.currency ?? movement.currency,
    outcome: outcomeOfState(result.providerState),
  };
}
