import type { RefundSnapshot } from '@mm/domain';
import type { Refund } from '../../generated/prisma/client.js';

export function refundSnapshotOf(r: Refund, merchantOrderId: string): RefundSnapshot {
  return {
    id: r.id,
    transactionId: r.transactionId,
    merchantOrderId,
    amount: Number(r.amount),
    currency: r.currency,
    reason: r.reason,
    status: r.status as RefundSnapshot['status'],
    failureReason: r.failureReason,
    providerReference: r.providerReference,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    completedAt: r.completedAt,
  };
}
