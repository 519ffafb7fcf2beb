import type { Db } from '@mm/db';
import type { OutboxRow } from '@mm/db/outbox';
import { recordDeliveryOutcome, type DeliveryOutcome, type RecordedAs } from '@mm/db/webhooks';
import { afterFailedAttempt } from '../retry-policy.js';
import type { SendResult } from '../send-webhook.js';

export interface AttemptToRecord {
  eventId: string;
  outboxId: string;
  attemptNo: number;
  targetUrl: string;
  /** When the attempt started: the attempt row's created_at. */
  attemptedAt: Date;
  /** When it ended: the retry delay runs from here ("delay after previous failure"). */
  finishedAt: Date;
  result: SendResult;
}

export interface RecordedAttempt {
  recordedAs: RecordedAs;
  /** Outbox rows to publish after commit: the next run of this event, or the next event released. */
  publish: OutboxRow[];
  nextAttemptAt: Date | null;
}

/** The retry policy decides what the attempt leads to; @mm/db records it and keeps the events of a transaction in order. */
export async function recordAttempt(
  db: Db,
  a: AttemptToRecord,
  scheduleMs: readonly number[],
): Promise<RecordedAttempt> {
  const step = a.result.success ? null : afterFailedAttempt(a.attemptNo, scheduleMs);
  const outcome: DeliveryOutcome = !step
    ? { kind: 'delivered' }
    : step.kind === 'retry'
      ? { kind: 'retry', at: new Date(a.finishedAt.getTime() + step.delayMs) }
      : { kind: 'given-up' };
  const { result: r } = a;
  // One round trip, run again after a deadlock; recordDeliveryOutcome writes nothing for an attempt already recorded.
  const recorded = await recordDeliveryOutcome(db, {
    eventId: a.eventId,
    outboxId: a.outboxId,
    attempt: {
      attemptNo: a.attemptNo,
      targetUrl: a.targetUrl,
      statusCode: r.statusCode,
      latencyMs: r.latencyMs,
      error: r.error,
      errorDetail: r.errorDetail,
      attemptedAt: a.attemptedAt,
      finishedAt: a.finishedAt,
    },
    outcome,
  });
  const nextAttemptAt = recorded.recordedAs === 'RETRY_SCHEDULED' && outcome.kind === 'retry' ? outcome.at : null;
  return { ...recorded, nextAttemptAt };
}
