import type { Db } from '../database/index.js';
import { LATE_SUCCESS_ORIGIN } from './refunds/late-success-return.js';

/** One line of a transaction's history, as the back-office shows it. */
export type TimelineItem =
  | { at: Date; kind: 'state'; from: string | null; to: string; cause: string; detail: Record<string, unknown> | null }
  | {
      at: Date;
      kind: 'refund';
      refundId: string;
      amount: bigint;
      status: string;
      failureReason: string | null;
      completedAt: Date | null;
      origin: string;
    }
  /** The operator confirmed the payment after it FAILED here (decisions 13); its return is the LATE_SUCCESS refund that follows. */
  | { at: Date; kind: 'late-success'; refundId: string; amount: bigint; providerTxId: string | null }
  | {
      at: Date;
      kind: 'webhook';
      eventId: string;
      eventType: string;
      eventStatus: string;
      attemptNo: number;
      statusCode: number | null;
      latencyMs: number;
      error: string | null;
      errorDetail: string | null;
      success: boolean;
      targetUrl: string;
    };

/**
 * Everything that happened to a transaction, oldest first: each state change with its cause and what
 * the operator said (or who decided), each refund, a late success and its automatic return to the
 * customer (decisions 13), each webhook delivery attempt with its HTTP status.
 * Null when there is no such transaction.
 */
export async function transactionTimeline(db: Db, transactionId: string) {
  const transaction = await db.transaction.findUnique({
    where: { id: transactionId },
    include: { merchant: { select: { id: true, name: true } } },
  });
  if (!transaction) return null;
  const [events, refunds, webhooks] = await Promise.all([
    db.transactionEvent.findMany({ where: { transactionId }, orderBy: { id: 'asc' } }),
    db.refund.findMany({ where: { transactionId }, orderBy: { createdAt: 'asc' } }),
    db.webhookEvent.findMany({
      where: { transactionId },
      orderBy: { seq: 'asc' },
      include: { attempts: { orderBy: { attemptNo: 'asc' } } },
    }),
  ]);
  const items: TimelineItem[] = [
    ...events.map((e): TimelineItem => ({
      at: e.createdAt,
      kind: 'state',
      from: e.fromStatus,
      to: e.toStatus,
      cause: e.cause,
      detail: e.detail as Record<string, unknown> | null,
    })),
    ...refunds.flatMap((r): TimelineItem[] => [
      ...(r.origin === LATE_SUCCESS_ORIGIN
        ? [
            {
              at: r.createdAt,
              kind: 'late-success',
              refundId: r.id,
              amount: r.amount,
              providerTxId: r.originalProviderTxId,
            } as const,
          ]
        : []),
      {
        at: r.createdAt,
        kind: 'refund',
        refundId: r.id,
        amount: r.amount,
        status: r.status,
        failureReason: r.failureReason,
        completedAt: r.completedAt,
        origin: r.origin,
      },
    ]),
    ...webhooks.flatMap((w) =>
      w.attempts.map((a): TimelineItem => ({
        at: a.createdAt,
        kind: 'webhook',
        eventId: w.id,
        eventType: w.eventType,
        eventStatus: w.status,
        attemptNo: a.attemptNo,
        statusCode: a.statusCode,
        latencyMs: a.latencyMs,
        error: a.error,
        errorDetail: a.errorDetail,
        success: a.success,
        targetUrl: a.targetUrl,
      })),
    ),
  ];
  // Stable: items of one instant keep the order they were listed in (state, refund, webhook).
  items.sort((a, b) => a.at.getTime() - b.at.getTime());
  return { transaction, items, webhookEvents: webhooks.map(({ attempts: _a, ...w }) => w) };
}
