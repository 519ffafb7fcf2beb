/**
 * Why a cash-in became PENDING: the causes the operator bridge writes on that move (transaction_events), named
 * here once for the bridge that writes them and the expiry check that reads them. They are stored: never renamed.
 */
export const PENDING_CAUSES = {
  /** The operator acknowledged the push. */
  acknowledged: 'operator-ack',
  /** The push went unanswered on every attempt, but the operator's status query then knew the payment. */
  knownAfterTimeout: 'push-timeout:operator-ack',
  /**
   * The push went unanswered on every attempt and so did the status query (or an operator whose lookup lags
   * said it did not know it yet): nobody knows whether the push reached the operator.
   */
  outcomeUnknown: 'push-timeout:outcome-unknown',
} as const;

export type PendingCause = (typeof PENDING_CAUSES)[keyof typeof PENDING_CAUSES];

/**
 * True when the operator took the push, as the bridge recorded it: the operator's "not found" then proves no
 * push was lost (MTN forgets, a lookup lags), and the cash-in expires, from where a late payment still credits
 * it. False only for a push whose outcome was unknown; any other cause (none recorded, an older name) counts
 * as taken, the reading that loses no payment.
 */
export function pushWasTaken(pendingCause: string | null): boolean {
  return pendingCause !== PENDING_CAUSES.outcomeUnknown;
}
