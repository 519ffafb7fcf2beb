import type { TransactionStatus } from './transaction-status.js';

export interface TransactionSnapshot {
  id: string;
  merchantOrderId: string;
  type: string;
  status: TransactionStatus;
  amount: number;
  currency: string;
  countryCode: string;
  providerTxId: string | null;
  failureCode: string | null;
  failureReason: string | null;
  /** The operator the payment went through (OPERATORS). */
  operator: string;
  /** The payment link a cash-in was paid through (docs/payment-links.md). */
  paymentLinkId?: string | null;
}

/** ISO 8601 with an explicit "+00:00" offset, as the interface's webhook timestamp asks (docs/interface.md). */
export function isoWithOffset(d: Date): string {
  return d.toISOString().replace('Z', '+00:00');
}

/**
 * The interface's payload (docs/interface.md) plus event_id (decisions 9), failure_code/failure_reason
 * on FAILED, and operator (additive: a receiver that ignores unknown fields is unaffected).
 */
export function transactionStatusChangedPayload(
  t: TransactionSnapshot,
  eventId: string,
  occurredAt: Date,
): Record<string, unknown> {
  return {
    event: 'transaction.status_changed',
    event_id: eventId,
    transaction_id: t.id,
    merchant_order_id: t.merchantOrderId,
    type: t.type,
    status: t.status,
    amount: t.amount,
    currency: t.currency,
    country_code: t.countryCode,
    provider_tx_id: t.providerTxId,
    ...(t.status === 'FAILED' ? { failure_code: t.failureCode, failure_reason: t.failureReason } : {}),
    operator: t.operator,
    // Only on payments made through a link: every other webhook keeps its bytes.
    ...(t.paymentLinkId ? { payment_link_id: t.paymentLinkId } : {}),
    timestamp: isoWithOffset(occurredAt),
  };
}

export interface RefundSnapshot {
  id: string;
  transactionId: string;
  merchantOrderId: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  failureReason: string | null;
  providerReference: string;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** The refund record of decisions 5, as the API shows it. */
export function refundRecord(r: RefundSnapshot): Record<string, unknown> {
  return {
    refund_id: r.id,
    transaction_id: r.transactionId,
    merchant_order_id: r.merchantOrderId,
    amount: r.amount,
    currency: r.currency,
    reason: r.reason,
    status: r.status,
    failure_reason: r.failureReason,
    provider_reference: r.providerReference,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    completed_at: r.completedAt ? r.completedAt.toISOString() : null,
  };
}

/** decisions 5: refund terminal changes are notified as `refund.status_changed` with the refund fields. */
export function refundStatusChangedPayload(
  r: RefundSnapshot,
  eventId: string,
  occurredAt: Date,
): Record<string, unknown> {
  return {
    event: 'refund.status_changed',
    event_id: eventId,
    ...refundRecord(r),
    timestamp: isoWithOffset(occurredAt),
  };
}
