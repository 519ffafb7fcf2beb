import { lockTransactionRow, recordAttemptRow, releaseNextWebhookEvent, rescheduleOutbox, type Db, type OutboxRow } from '@mm/db';
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
  // webhook_events.last_error is read by staff only: the detail.
  const lastError = a.result.errorDetail ?? a.result.error ?? `HTTP ${a.result.statusCode}`;
  const status = !step ? 'DELIVERED' : step.kind === 'retry' ? 'PENDING' : 'ABANDONED';

  return db.$transaction(async (tx): Promise<RecordedAttempt> => {
    await lockTransactionRow(tx, a.transactionId);
    const recorded = await recordAttemptRow(tx, {
      eventId: a.eventId, attemptNo: a.attemptNo, targetUrl: a.targetUrl, attemptedAt: a.attemptedAt,
      statusCode: a.result.statusCode, latencyMs: a.result.latencyMs, error: a.result.error, errorDetail: a.result.errorDetail, success: a.result.success,
      event: { status, updatedAt: a.finishedAt, nextAttemptAt, deliveredAt: step ? null : a.finishedAt, lastError: step ? lastError : null },
      completeOutboxId: nextAttemptAt ? null : a.outboxId,
    });
    if (!recorded) return { recordedAs: 'DUPLICATE', publish: [], nextAttemptAt: null };

    if (nextAttemptAt) {
      const row = await rescheduleOutbox(tx, a.outboxId, nextAttemptAt);
      return { recordedAs: 'RETRY_SCHEDULED', publish: [row], nextAttemptAt };
    }
    const released = await releaseNextWebhookEvent(tx, a.transactionId);
    return { recordedAs: step ? 'ABANDONED' : 'DELIVERED', publish: released ? [released] : [], nextAttemptAt: null };
  });
}
