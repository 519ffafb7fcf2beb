import type { OperatorResult } from './operator-result.js';
import type { TransactionStatus, TransactionType } from './transaction-status.js';

/**
 * A confirmed payment: OK with its 200. An OK without it decides nothing (needsStatusConfirmation), and an
 * OK with another code is not a payment.
 */
export function isConfirmedPayment(r: Pick<OperatorResult, 'providerState' | 'providerTxnStatus'>): boolean {
  return r.providerState === 'OK' && r.providerTxnStatus === '200';
}

/**
 * Whether the operator's result is a late success whose money goes back to the customer (decisions 13):
 * a confirmed payment of a cash-in that is FAILED here. FAILED is final and the merchant was told so, so
 * the money is not the merchant's; it is the customer's, returned through the operator. A late success
 * after EXPIRED is not one of these: EXPIRED is not final and that payment credits the merchant (decisions 4).
 */
export function returnsLateSuccess(
  t: { type: TransactionType; status: TransactionStatus },
  r: Pick<OperatorResult, 'providerState' | 'providerTxnStatus'>,
): boolean {
  return t.type === 'CASHIN' && t.status === 'FAILED' && isConfirmedPayment(r);
}
