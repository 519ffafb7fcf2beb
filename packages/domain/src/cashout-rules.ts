/** decisions 7: an amount at or above the threshold waits for a back-office approver. */
export function cashoutNeedsApproval(amount: number, threshold: number): boolean {
  return amount >= threshold;
}
