import { completeOutbox, lockTransactionRow, releaseNextWebhookEvent, rescheduleOutbox, type Db, type OutboxRow } from '@mm/db';
import { afterFailedAttempt } from '../retry-policy.js';
import type { SendResult } from '../send-webhook.js';

export interface AttemptToRecord {
  eventId: string;
  outboxId: string;
  transactionId: string | null;
  attemptNo: number;
  targetUrl: string;
  /** When the attempt started: the attempt row's created_at. */
  attemptedAt: Date;
  /** When it ended: the retry delay runs from here ("delay after previous failure"). */
  finishedAt: Date;
  result: SendResult;
}

export type RecordedAs = 'DELIVERED' | 'RETRY_SCHEDULED' | 'ABANDONED' | 'DUPLICATE';

export interface RecordedAttempt {
  recordedAs: RecordedAs;
  /** Outbox rows to publish after commit: the next run of this event, or the next event released. */
  publish: OutboxRow[];
  nextAttemptAt: Date | null;
}

/**
 * Records one attempt and its consequence in one database transaction: the attempt row, the event's
 * new state, and its outbox row (done, or re-scheduled for the next attempt). When the event ends,
 * the next held event of its transaction is released. The event update is conditional on the
 * attempt count this run started from, so a duplicate run of the same job records nothing.
 */
export async function recordAttempt(db: Db, a: AttemptToRecord, scheduleMs: readonly number[]): Promise<RecordedAttempt> {
  const step = a.result.success ? null : afterFailedAttempt(a.attemptNo, scheduleMs);
  const nextAttemptAt = step?.kind === 'retry' ? new Date(a.finishedAt.getTime() + step.delayMs) : null;
  const lastError = a.result.error ?? `HTTP ${a.result.statusCode}`;
  const common = { attemptCount: a.attemptNo, updatedAt: a.finishedAt, nextAttemptAt };
  const data = !step
    ? { ...common, status: 'DELIVERED', deliveredAt: a.finishedAt }
    : step.kind === 'retry'
      ? { ...common, lastError }
      : { ...common, status: 'ABANDONED', lastError };

  return db.$transaction(async (tx): Promise<RecordedAttempt> => {
    await lockTransactionRow(tx, a.transactionId);
    const { count } = await tx.webhookEvent.updateMany({
      where: { id: a.eventId, status: 'PENDING', attemptCount: a.attemptNo - 1 },
      data,
    });
    if (count === 0) return { recordedAs: 'DUPLICATE', publish: [], nextAttemptAt: null };

    await tx.webhookAttempt.create({
      data: {
        eventId: a.eventId,
        attemptNo: a.attemptNo,
        targetUrl: a.targetUrl,
        statusCode: a.result.statusCode,
        latencyMs: a.result.latencyMs,
        error: a.result.error,
        success: a.result.success,
        createdAt: a.attemptedAt,
      },
    });

    if (nextAttemptAt) {
      const row = await rescheduleOutbox(tx, a.outboxId, nextAttemptAt);
      return { recordedAs: 'RETRY_SCHEDULED', publish: [row], nextAttemptAt };
    }
    await completeOutbox(tx, a.outboxId);
    const released = await releaseNextWebhookEvent(tx, a.transactionId);
    return { recordedAs: step ? 'ABANDONED' : 'DELIVERED', publish: released ? [released] : [], nextAttemptAt: null };
  });
}
