import type { Db } from '../database/index.js';
import { Prisma } from '../generated/prisma/client.js';
import { rawQuery } from '../database/index.js';

/** What a delivery run needs of the event it claimed. */
export interface ClaimedEvent {
  id: string;
  merchantId: string;
  transactionId: string | null;
  payload: unknown;
  /** The bytes to send and sign, as recorded (null only for a row written around recordWebhookEvent). */
  body: string | null;
  attemptCount: number;
  targetUrl: string | null;
}

/**
 * Takes the event's next attempt for one run before it sends anything, in the statement that finds it due
 * (PENDING, its next_attempt_at at or before `dueBy`): next_attempt_at moves to `until`. Two runs of the
 * event's job at once (BullMQ running a job again whose lock ran out while it was still at work, or a stale
 * job of an earlier run that finds the next attempt due) would otherwise both send it; PostgreSQL's row lock
 * makes the second find it not due, and it sends nothing. The attempt's record sets next_attempt_at again
 * (the retry, or none); a run that dies before recording leaves the claim to run out, after which the
 * relay's next publication of the event's still open outbox row makes the attempt. Null: not this run's
 * (unknown, ended, held, not due, or claimed by another run); the caller reads the event to tell which.
 */
export async function claimDueDelivery(
  db: Db,
  eventId: string,
  dueBy: Date,
  until: Date,
): Promise<ClaimedEvent | null> {
  // On the pg pool (rawQuery): one autocommit statement, every delivery.
  const [row] = await rawQuery<{
    id: string;
    merchant_id: string;
    transaction_id: string | null;
    payload: unknown;
    body: string | null;
    attempt_count: number;
    target_url: string | null;
  }>(
    db,
    Prisma.sql`
    UPDATE webhook_events SET next_attempt_at = ${until}::timestamptz
     WHERE id = ${eventId}::uuid AND status = 'PENDING' AND next_attempt_at <= ${dueBy}::timestamptz
    RETURNING id::text, merchant_id::text, transaction_id::text, payload, body, attempt_count, target_url`,
  );
  return row
    ? {
        id: row.id,
        merchantId: row.merchant_id,
        transactionId: row.transaction_id,
        payload: row.payload,
        body: row.body,
        attemptCount: row.attempt_count,
        targetUrl: row.target_url,
      }
    : null;
}
