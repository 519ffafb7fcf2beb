import type { Tx } from '../client.js';

export interface AttemptRow {
  eventId: string;
  /** The event's attempt count this run started from, plus one. */
  attemptNo: number;
  targetUrl: string;
  statusCode: number | null;
  latencyMs: number;
  /** For the merchant (GET /webhook-events): a fixed vocabulary, never an address. */
  error: string | null;
  /** For staff (back-office): the guard's or the connection's own words. */
  errorDetail: string | null;
  success: boolean;
  /** When the attempt started: the attempt row's created_at. */
  attemptedAt: Date;
  /** The event after it. */
  event: {
    status: 'PENDING' | 'DELIVERED' | 'ABANDONED';
    updatedAt: Date;
    nextAttemptAt: Date | null;
    deliveredAt: Date | null;
    /** Staff only (its detail). null keeps the event's last error (a delivery does not erase why earlier attempts failed). */
    lastError: string | null;
  };
  /** The outbox row of the job to mark done with it (the event ends), or null (it is retried). */
  completeOutboxId: string | null;
}

/**
 * The attempt row, the event's new state and (when the event ends) its outbox row done, in one
 * statement, every delivery. Conditional on the attempt count the run started from: false, and nothing
 * written, for a duplicate run of the same job.
 */
export async function recordAttemptRow(tx: Tx, a: AttemptRow): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ recorded: number }[]>`
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
       WHERE id = ${a.completeOutboxId}::uuid AND completed_at IS NULL AND EXISTS (SELECT 1 FROM event))
    SELECT count(*)::int AS recorded FROM event`;
  return (row?.recorded ?? 0) === 1;
}
