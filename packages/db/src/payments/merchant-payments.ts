/**
 * The merchant portal's reads of a merchant's own payments: the list (the back-office search, its
 * merchant forced) and one payment's history as the merchant may see it. Every read names the
 * merchant: another merchant's id reads as no payment at all.
 */
import type { Db } from '../database/index.js';
import type { Refund, Transaction } from '../generated/prisma/client.js';
import { LATE_SUCCESS_ORIGIN } from './refunds/late-success-return.js';
import { searchTransactions, type SearchPage, type TransactionSearch } from './search-transactions.js';
import { transactionTimeline } from './transaction-timeline.js';

export type MerchantPaymentSearch = Omit<TransactionSearch, 'merchantId'>;

/** The merchant's transactions, newest first, keyset-paged on (created_at, id) through transactions_merchant_created_idx. */
export function searchMerchantPayments(
  db: Db,
  merchantId: string,
  q: MerchantPaymentSearch,
  page: { limit: number; after?: { createdAt: Date; id: string } | undefined },
): Promise<SearchPage> {
  return searchTransactions(
    db,
    { ...q, merchantId },
    { limit: page.limit, ...(page.after ? { after: page.after } : {}) },
  );
}

/** What the operator said, under the keys the merchant may read; who decided (staff) stays in the back-office. */
const MERCHANT_DETAIL_KEYS = [
  'provider_state',
  'provider_txn_status',
  'provider_tx_id',
  'failure_code',
  'failure_reason',
] as const;

export type MerchantTimelineItem =
  | { at: Date; kind: 'state'; from: string | null; to: string; cause: string; detail: Record<string, string | null> }
  | { at: Date; kind: 'refund'; refundId: string; amount: bigint; status: string }
  | {
      at: Date;
      kind: 'webhook';
      eventId: string;
      eventType: string;
      attemptNo: number;
      statusCode: number | null;
      latencyMs: number;
      /** The fixed vocabulary GET /v1/webhook-events shows; the staff-only detail (addresses) is left out. */
      error: string | null;
      success: boolean;
    };

export interface MerchantWebhookAttempt {
  at: Date;
  attemptNo: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  success: boolean;
}

export interface MerchantWebhookEvent {
  id: string;
  eventType: string;
  status: string;
  targetUrl: string | null;
  attemptCount: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  attempts: MerchantWebhookAttempt[];
}

export interface MerchantPaymentDetail {
  transaction: Transaction;
  /** Oldest first. */
  timeline: MerchantTimelineItem[];
  /** The refunds the merchant asked for, newest first. */
  refunds: Refund[];
  /** Oldest first, each with its delivery attempts in order. */
  webhookEvents: MerchantWebhookEvent[];
}

function merchantDetail(detail: Record<string, unknown> | null): Record<string, string | null> {
  const shown: Record<string, string | null> = {};
  for (const key of MERCHANT_DETAIL_KEYS) {
    const value = detail?.[key];
    if (value === null || typeof value === 'string') shown[key] = value;
    else if (typeof value === 'number') shown[key] = String(value);
  }
  return shown;
}

/**
 * One payment of the merchant's, with its history (transactionTimeline, the back-office's), or null when
 * the merchant has no payment with this id. A late success and its return to the customer (decisions 13)
 * are not the merchant's to see: the payment stays FAILED for them, as they were told.
 */
export async function merchantPaymentDetail(
  db: Db,
  merchantId: string,
  transactionId: string,
): Promise<MerchantPaymentDetail | null> {
  const owned = await db.transaction.findFirst({ where: { id: transactionId, merchantId }, select: { id: true } });
  if (!owned) return null;
  const [history, refunds] = await Promise.all([
    transactionTimeline(db, transactionId),
    db.refund.findMany({
      where: { transactionId, merchantId, origin: { not: LATE_SUCCESS_ORIGIN } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    }),
  ]);
  if (!history) return null;
  const timeline = history.items.flatMap((i): MerchantTimelineItem[] => {
    switch (i.kind) {
      case 'state':
        return [{ at: i.at, kind: 'state', from: i.from, to: i.to, cause: i.cause, detail: merchantDetail(i.detail) }];
      case 'refund':
        return i.origin === LATE_SUCCESS_ORIGIN
          ? []
          : [{ at: i.at, kind: 'refund', refundId: i.refundId, amount: i.amount, status: i.status }];
      case 'late-success':
        return [];
      case 'webhook':
        return [
          {
            at: i.at,
            kind: 'webhook',
            eventId: i.eventId,
            eventType: i.eventType,
            attemptNo: i.attemptNo,
            statusCode: i.statusCode,
            latencyMs: i.latencyMs,
            error: i.error,
            success: i.success,
          },
        ];
    }
  });
  const webhookEvents = history.webhookEvents
    .filter((e) => e.merchantId === merchantId)
    .map((e): MerchantWebhookEvent => ({
      id: e.id,
      eventType: e.eventType,
      status: e.status,
      targetUrl: e.targetUrl,
      attemptCount: e.attemptCount,
      nextAttemptAt: e.nextAttemptAt,
      deliveredAt: e.deliveredAt,
      createdAt: e.createdAt,
      attempts: timeline.flatMap((a) =>
        a.kind === 'webhook' && a.eventId === e.id
          ? [
              {
                at: a.at,
                attemptNo: a.attemptNo,
                statusCode: a.statusCode,
                latencyMs: a.latencyMs,
                error: a.error,
                success: a.success,
              },
            ]
          : [],
      ),
    }));
  return { transaction: history.transaction, timeline, refunds, webhookEvents };
}

/** The refund a portal form's idempotency key already named, if any: a form sent twice shows the first refund. */
export function findRefundByIdempotencyKey(
  db: Db,
  merchantId: string,
  idempotencyKey: string,
): Promise<Pick<Refund, 'id' | 'transactionId'> | null> {
  return db.refund.findFirst({ where: { merchantId, idempotencyKey }, select: { id: true, transactionId: true } });
}
