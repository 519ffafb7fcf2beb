import type { Tx } from '../client.js';
import { outboxRowOf, rescheduleOutbox, type OutboxRow } from '../outbox.js';

/** What the dispatcher decided after one attempt (its retry policy is its own business). */
export type DeliveryOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; at: Date }
  | { kind: 'given-up' };

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
 * One attempt of a webhook event and all that follows from it, inside the caller's database
 * transaction. Events of one transaction are delivered in order: a later event is held (see
 * recordWebhookEvent and resendWebhookEvent) until the earlier one is delivered or given up, and this
 * is where it is released, under the transaction's row lock (lockTransactionRow says why).
 *
 * DUPLICATE, and nothing written, for a second run of the same job: the event update is conditional on
 * the attempt count the run started from.
 */
export async function recordDeliveryOutcome(tx: Tx, d: DeliveryToRecord): Promise<RecordedDelivery> {
  const transactionId = await lockTransactionOfEvent(tx, d.eventId);
  const { attempt: a, outcome } = d;
  const delivered = outcome.kind === 'delivered';
  const nextAttemptAt = outcome.kind === 'retry' ? outcome.at : null;
  const recorded = await recordAttemptRow(tx, {
    eventId: d.eventId, attemptNo: a.attemptNo, targetUrl: a.targetUrl, attemptedAt: a.attemptedAt,
    statusCode: a.statusCode, latencyMs: a.latencyMs, error: a.error, errorDetail: a.errorDetail, success: delivered,
    event: {
      status: delivered ? 'DELIVERED' : outcome.kind === 'retry' ? 'PENDING' : 'ABANDONED',
      updatedAt: a.finishedAt,
      nextAttemptAt,
      deliveredAt: delivered ? a.finishedAt : null,
      // Read by staff only: the detail. A delivery keeps the event's last error (why earlier attempts failed).
      lastError: delivered ? null : (a.errorDetail ?? a.error ?? `HTTP ${a.statusCode}`),
    },
    completeOutboxId: nextAttemptAt ? null : d.outboxId,
    // The event ends (delivered or given up): the next held event of its transaction may go.
    releaseNextOf: nextAttemptAt ? null : transactionId,
  });
  if (!recorded) return { recordedAs: 'DUPLICATE', publish: [] };

  if (nextAttemptAt) return { recordedAs: 'RETRY_SCHEDULED', publish: [await rescheduleOutbox(tx, d.outboxId, nextAttemptAt)] };
  return { recordedAs: delivered ? 'DELIVERED' : 'ABANDONED', publish: recorded.released ? [recorded.released] : [] };
}

/** The lock of lockTransactionRow, found from the event in the same round trip; the transaction's id, or null for an event of none. */
async function lockTransactionOfEvent(tx: Tx, eventId: string): Promise<string | null> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM transactions WHERE id = (SELECT transaction_id FROM webhook_events WHERE id = ${eventId}::uuid) FOR UPDATE`;
  return row?.id ?? null;
}

interface AttemptRow extends Omit<DeliveryAttempt, 'finishedAt'> {
  eventId: string;
  success: boolean;
  /** The event after it. */
  event: {
    status: 'PENDING' | 'DELIVERED' | 'ABANDONED';
    updatedAt: Date;
    nextAttemptAt: Date | null;
    deliveredAt: Date | null;
    /** null keeps the event's last error. */
    lastError: string | null;
  };
  /** The outbox row of the job to mark done with it (the event ends), or null (it is retried). */
  completeOutboxId: string | null;
  /** The transaction whose next held event is released with it (the event ends), or null. */
  releaseNextOf: string | null;
}

/**
 * The attempt row, the event's new state and, when the event ends, its outbox row done and the next
 * held event of its transaction released (its next attempt and its job's row due now), in one
 * statement, every delivery. Conditional on the attempt count the run started from: null, and
 * nothing written, for a duplicate run of the same job. The CTEs all see the events as they were
 * before the statement: the one being recorded is still PENDING there, hence `id <> eventId`.
 */
async function recordAttemptRow(tx: Tx, a: AttemptRow): Promise<{ released: OutboxRow | null } | null> {
  const now = new Date();
  const rows = await tx.$queryRaw<{ recorded: number; id: string | null; topic: string | null; payload: unknown; available_at: Date | null; run: number | null }[]>`
    WITH event AS (
      UPDATE webhook_events
         SET attempt_count = ${a.attemptNo}::int, status = ${a.event.status}::text, updated_at = ${a.event.updatedAt}::timestamptz,
             next_attempt_at = ${a.event.nextAttemptAt}::timestamptz,
             delivered_at = coalesce(${a.event.deliveredAt}::timestamptz, delivered_at),
             last_error = coalesce(${a.event.lastError}::text, last_error)
       WHERE id = ${a.eventId}::uuid AND status = 'PENDING' AND attempt_count = ${a.attemptNo - 1}::int
      RETURNING id),
    attempt AS (
      INSERT INTO webhook_attempts (event_id, attempt_no, target_url, status_code, latency_ms, error, error_detail, success, created_at)
      SELECT id, ${a.attemptNo}::int, ${a.targetUrl}::text, ${a.statusCode}::int, ${Math.round(a.latencyMs)}::int, ${a.error}::text,
             ${a.errorDetail}::text, ${a.success}::boolean, ${a.attemptedAt}::timestamptz
        FROM event),
    done AS (
      UPDATE outbox SET completed_at = now()
       WHERE id = ${a.completeOutboxId}::uuid AND completed_at IS NULL AND EXISTS (SELECT 1 FROM event)),
    next AS (
      SELECT id FROM webhook_events
       WHERE transaction_id = ${a.releaseNextOf}::uuid AND status = 'PENDING' AND id <> ${a.eventId}::uuid AND EXISTS (SELECT 1 FROM event)
       ORDER BY seq LIMIT 1),
    released_event AS (
      UPDATE webhook_events e SET next_attempt_at = ${now}::timestamptz FROM next WHERE e.id = next.id),
    released_job AS (
      UPDATE outbox o SET available_at = ${now}::timestamptz FROM next WHERE o.id = next.id
      RETURNING o.id::text, o.topic, o.payload, o.available_at, o.run)
    SELECT (SELECT count(*)::int FROM event) AS recorded, j.id, j.topic, j.payload, j.available_at, j.run
      FROM (SELECT 1) one LEFT JOIN released_job j ON true`;
  const [row] = rows;
  if (!row || row.recorded !== 1) return null;
  return { released: row.id ? outboxRowOf({ id: row.id, topic: row.topic!, payload: row.payload, availableAt: row.available_at!, run: row.run! }) : null };
}
