import { DomainError, isAmountInRange, requestReplayed, type AmountLimits } from '@mm/domain';
import type { Transaction } from '@mm/db';

/** decisions 10: the same bounds for a cash-in and a cash-out. */
export function assertAmountInRange(amount: number, limits: AmountLimits, currency: string): void {
  if (!isAmountInRange(amount, limits)) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `amount must be between ${limits.min} and ${limits.max} ${currency}`);
  }
}

/**
 * merchant_order_id already taken (decisions 4): the same request again is a replay of that
 * transaction; anything else is a conflict. Cash-ins and cash-outs share the order ids. The very
 * signed request that created it (a cash-out keeps its hash) is REQUEST_REPLAYED, as the Redis replay
 * guard answers it: the order's own replay answer is for a retry signed anew.
 */
export function replayOf(
  existing: Transaction,
  fingerprint: string,
  merchantOrderId: string,
  signatureHash: string | null = null,
): { replayed: true; transaction: Transaction } {
  if (signatureHash !== null && existing.requestSignatureHash === signatureHash) throw requestReplayed();
  if (existing.requestFingerprint !== fingerprint) {
    throw new DomainError(
      'DUPLICATE_ORDER_ID',
      `merchant_order_id ${merchantOrderId} was already used with different parameters`,
    );
  }
  return { replayed: true, transaction: existing };
}
