import type { Db } from '../database/index.js';
import { Prisma } from '../generated/prisma/client.js';
import { outboxRowOf, type OutboxRow } from '../outbox/index.js';
import { rawQuery, retryOnConflict } from '../database/index.js';

/** What the dispatcher decided after one attempt (its retry policy is its own business). */
export type DeliveryOutcome = { kind: 'delivered' } | { kind: 'retry'; at: Date } | { kind: 'given-up' };

export interface DeliveryAttempt {
  /** The event's attempt count this run started from, plus one. */
  attemptNo: number;
  targetUrl: string;
  statusCode: number | null;
  latencyMs: number;
  /** For the merchant (GET /webhook-events): a fixed vocabulary, never an address. */
  error: string | null;
  /** For staff (back-office): the guard's or the connection's own words. */
  errorDetail: string | null;
  /** When the attempt started: the attempt row's created_at. */
  attemptedAt: Date;
  /** When it ended: the event's updated_at (and delivered_at). */
  finishedAt: Date;
}

export interface DeliveryToRecord {
  eventId: string;
  /** The outbox row of the job that made the attempt: done when the event ends, re-scheduled for a retry. */
  outboxId: string;
  attempt: DeliveryAttempt;
  outcome: DeliveryOutcome;
}

export type RecordedAs = 'DELIVERED' | 'RETRY_SCHEDULED' | 'ABANDONED' | 'DUPLICATE';

export interface RecordedDelivery {
  recordedAs: RecordedAs;
  /** Outbox rows to publish after commit: the next run of this event, or the next event of its transaction released. */
  publish: OutboxRow[];
}

/**
 * One attempt of a webhook event and all that follows from it, in one autocommit round trip on the
 * client's pg pool: the record_webhook_attempt function of the migrations (20261203000000), run again
 * on a deadlock like any transaction. Events of one transaction are delivered in order: a later event
 * is held (see recordWebhookEvent and resendWebhookEvent) until the earlier one is delivered or given
 * up, and this is where it is released, under the payment's row lock (lockPaymentRow says why),
 * taken by the function before the statement that looks for the next held event.
 *
 * DUPLICATE, and nothing written, for a second run of the same job: the event update is conditional on
 * the attempt count the run started from.
 */
export async function recordDeliveryOutcome(db: Db, d: DeliveryToRecord): Promise<RecordedDelivery> {
  const { attempt: a, outcome } = d;
  const delivered = outcome.kind === 'delivered';
  const nextAttemptAt = outcome.kind === 'retry' ? outcome.at : null;
  const args = {
    event_id: d.eventId,
    attempt_no: a.attemptNo,
    target_url: a.targetUrl,
    status_code: a.statusCode,
    latency_ms: Math.round(a.latencyMs),
    error: a.error,
    error_detail: a.errorDetail,
    success: delivered,
    attempted_at: a.attemptedAt,
    status: delivered ? 'DELIVERED' : outcome.kind === 'retry' ? 'PENDING' : 'ABANDONED',
    updated_at: a.finishedAt,
    next_attempt_at: nextAttemptAt,
    delivered_at: delivered ? a.finishedAt : null,
    // Read by staff only: the detail. A delivery keeps the event's last error (why earlier attempts failed).
    last_error: delivered ? null : (a.errorDetail ?? a.error ?? `HTTP ${a.statusCode}`),
    // The event ends (delivered or given up): its job is done and the next held event of its transaction may go.
    complete_outbox_id: nextAttemptAt ? null : d.outboxId,
    release_next: nextAttemptAt === null,
    // A retry: another run of the same row (a new job id) at its time.
    reschedule_outbox_id: nextAttemptAt ? d.outboxId : null,
    reschedule_at: nextAttemptAt,
    now: new Date(),
  };
  // With the row to publish when there is one (the next held event released, or this one's next run), else nulls.
  const [row] = await retryOnConflict(() =>
    rawQuery<{ recorded: number; id: string | null; topic: string; payload: unknown; availableAt: Date; run: number }>(
      db,
      Prisma.sql`
    SELECT o_recorded AS recorded, o_id AS id, o_topic AS topic, o_payload AS payload, o_available_at AS "availableAt", o_run AS run
      FROM record_webhook_attempt(${JSON.stringify(args)}::jsonb)`,
    ),
  );
  if (!row || row.recorded !== 1) return { recordedAs: 'DUPLICATE', publish: [] };
  const publish = row.id ? [outboxRowOf({ ...row, id: row.id })] : [];
  return { recordedAs: delivered ? 'DELIVERED' : nextAttemptAt ? 'RETRY_SCHEDULED' : 'ABANDONED', publish };
}
