import { refundRecord } from '@mm/domain';
import { refundSnapshotOf } from '@mm/db/payments';
import type { DbDeps } from '../deps.js';

/**
 * One of the merchant's refunds as its record shows it, null when it has none of this id. The return of
 * a late success is the customer's money going back, not a refund the merchant asked for (decisions
 * 13): it does not exist for the merchant.
 */
export async function findMerchantRefund(
  deps: DbDeps,
  merchantId: string,
  refundId: string,
): Promise<{ transactionId: string; record: Record<string, unknown> } | null> {
  const refund = await deps.db.refund.findFirst({
    where: { id: refundId, merchantId, origin: 'MERCHANT' },
    include: { transaction: { select: { merchantOrderId: true } } },
  });
  if (!refund) return null;
  return {
    transactionId: refund.transactionId,
    record: refundRecord(refundSnapshotOf(refund, refund.transaction.merchantOrderId)),
  };
}
