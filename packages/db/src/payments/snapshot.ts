import type { TransactionSnapshot, TransactionStatus } from '@mm/domain';
import type { Transaction } from '../generated/prisma/client.js';

export function snapshotOf(t: Transaction): TransactionSnapshot {
  return {
    id: t.id,
    merchantOrderId: t.merchantOrderId,
    type: t.type,
    status: t.status as TransactionStatus,
    amount: Number(t.amount),
    currency: t.currency,
    countryCode: t.countryCode,
    providerTxId: t.providerTxId,
    failureCode: t.failureCode,
    failureReason: t.failureReason,
    operator: t.operator,
    paymentLinkId: t.paymentLinkId,
  };
}
