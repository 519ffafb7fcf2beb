import { DomainError, isAmountInRange, type AmountLimits } from '@mm/domain';
import type { Transaction } from '@mm/db';

/** decisions 10: the same bounds for a cash-in and a cash-out. */
export function assertAmountInRange(amount: number, limits: AmountLimits, currency: string): void {
  if (!isAmountInRange(amount, limits)) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `amount must be between ${limits.min} and ${limits.max} ${currency}`);
  }
}

/**
 * merchant_order_id already taken (decisions 4): the same request again is a replay of that
 * transaction; anything else is a conflict. Cash-ins and cash-outs share the order ids.
 */
export function replayOf(existing: Transaction, fingerprint: string, merchantOrderId: string): { replayed: true; transaction: Transaction } {
  if (existing.requestFingerprint !== fingerprint) {
    throw new DomainError('DUPLICATE_ORDER_ID', `merchant_order_id ${merchantOrderId} was already used with different parameters`);
  }
  return { replayed: true, transaction: existing };
}
