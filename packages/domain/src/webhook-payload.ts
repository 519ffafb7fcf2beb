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
}

/** ISO 8601 with an explicit "+00:00" offset, as the spec's webhook timestamp asks. */
export function isoWithOffset(d: Date): string {
  return d.toISOString().replace('Z', '+00:00');
}

/** The spec's payload plus event_id (decisions 9), and failure_code/failure_reason on FAILED. */
export function transactionStatusChangedPayload(t: TransactionSnapshot, eventId: string, occurredAt: Date): Record<string, unknown> {
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
    timestamp: isoWithOffset(occurredAt),
  };
}
