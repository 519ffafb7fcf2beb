import { failureCodeForCause, type FailureCode } from './failure-codes.js';
import type { TransactionStatus } from './transaction-status.js';

/** Raw operator states of the interface: PENDING, OK, canceled, KO. */
export type ProviderState = 'PENDING' | 'OK' | 'canceled' | 'KO';

export interface OperatorResult {
  providerState: ProviderState;
  providerTxnStatus: string | null;
  providerTxId: string | null;
  failureReason: string | null;
  /**
   * The service's own name for the cause, when the adapter maps it from the operator's vocabulary (MTN's
   * NOT_ENOUGH_FUNDS is INSUFFICIENT_BALANCE). Absent: derived from the interface's codes (54321 + cause).
   */
  failureCode?: FailureCode | null;
  /**
   * What the operator says it moved, when its answer names it (Wave's session: amount and currency). A confirmed
   * payment is applied only if it is the cash-in's own amount and currency (confirmationDiffers); absent: the
   * answer names none (the simulator's callback, a hint's status answer of most operators), nothing to compare.
   */
  reported?: ReportedAmount | null;
}

export interface ReportedAmount {
  /** In the currency's units (XOF and XAF have no minor unit). */
  amount: number;
  currency: string;
}

export interface ResultOutcome {
  to: Extract<TransactionStatus, 'SUCCESS' | 'FAILED'>;
  failureCode: FailureCode | null;
  failureReason: string | null;
}

/**
 * OK without a detail code: the interface makes OK a success only with 200, so this is no confirmation
 * we can credit, and no refusal either. The safe reading is "not decided": ask the operator's status.
 */
export function needsStatusConfirmation(r: OperatorResult): boolean {
  return r.providerState === 'OK' && r.providerTxnStatus === null;
}

/** Maps an operator result onto the state machine; null when the result decides nothing yet. */
export function outcomeOfOperatorResult(r: OperatorResult): ResultOutcome | null {
  switch (r.providerState) {
    case 'PENDING':
      return null;
    case 'OK':
      if (r.providerTxnStatus === '200') return { to: 'SUCCESS', failureCode: null, failureReason: null };
      if (needsStatusConfirmation(r)) return null;
      // OK with another detail code: the operator said something other than "paid"; never credited.
      return { to: 'FAILED', failureCode: 'UNKNOWN', failureReason: null };
    case 'canceled':
      if (r.failureCode) return { to: 'FAILED', failureCode: r.failureCode, failureReason: r.failureReason };
      if (r.providerTxnStatus === null)
        return { to: 'FAILED', failureCode: 'CUSTOMER_DID_NOT_VALIDATE', failureReason: null };
      if (r.providerTxnStatus === '54321') {
        return { to: 'FAILED', failureCode: failureCodeForCause(r.failureReason), failureReason: r.failureReason };
      }
      return { to: 'FAILED', failureCode: failureCodeForCause(r.providerTxnStatus), failureReason: null };
    case 'KO':
      return {
        to: 'FAILED',
        failureCode: r.failureCode ?? 'OPERATOR_REJECTED',
        failureReason: r.failureCode ? r.failureReason : null,
      };
  }
}
