/** Why a cash-out waits for a back-office approver. */
export type CashoutApprovalReason = 'AMOUNT_AT_THRESHOLD' | 'MERCHANT_DAILY_TOTAL' | 'BENEFICIARY_DAILY_TOTAL';

/**
 * When a cash-out waits for an approver (decisions 7, and the security review's "no splitting"): at or
 * above the threshold on its own, or when it would take the merchant's cash-outs of the last 24 hours,
 * in total or to this one beneficiary, above their limit. Without the totals, a stolen API key pays out
 * the whole balance in amounts just under the threshold without anyone looking.
 */
export interface CashoutApprovalRule {
  threshold: number;
  /**
   * Rolling 24 h total of one merchant's cash-outs, all subsidiaries together (XOF and XAF are at par),
   * above which every one waits.
   */
  merchantDailyTotal: number;
  /** The same, to one beneficiary number. */
  beneficiaryDailyTotal: number;
}

/**
 * What the merchant's cash-outs of the last 24 hours add up to, every one that is not FAILED: paid,
 * in flight and awaiting approval alike (one that waits may still be approved and paid).
 */
export interface CashoutWindowTotals {
  merchant: number;
  beneficiary: number;
}

export const CASHOUT_WINDOW_MS = 24 * 3600 * 1000;

/** decisions 7: an amount at or above the threshold waits for a back-office approver. */
export function cashoutNeedsApproval(amount: number, threshold: number): boolean {
  return amount >= threshold;
}

export function cashoutApprovalReason(
  amount: number,
  rule: CashoutApprovalRule,
  totals: CashoutWindowTotals,
): CashoutApprovalReason | null {
  if (cashoutNeedsApproval(amount, rule.threshold)) return 'AMOUNT_AT_THRESHOLD';
  if (totals.merchant + amount > rule.merchantDailyTotal) return 'MERCHANT_DAILY_TOTAL';
  if (totals.beneficiary + amount > rule.beneficiaryDailyTotal) return 'BENEFICIARY_DAILY_TOTAL';
  return null;
}
