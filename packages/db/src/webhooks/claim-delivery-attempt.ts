import type { Db } from '../client.js';

export interface AttemptClaim {
  eventId: string;
  /** The event's attempt count as read: the attempt claimed is the next one. */
  attemptCount: number;
  /** The event's next_attempt_at as read (the run judged it due). */
  dueAt: Date;
  /** Until when the attempt is this run's: the request's time bound and some slack. */
  until: Date;
}

/**
 * Takes the event's next attempt for one run before it sends anything: its next_attempt_at moves to
 * `until`, on the condition that the event is as the run read it. Two runs of the event's job at once
 * (BullMQ running a job again whose lock ran out while it was still at work, or a stale job of an
 * earlier run that finds the next attempt due) would otherwise both send it; the second finds the
 * event changed and sends nothing. The attempt's record sets next_attempt_at again (the retry, or none);
 * a run that dies before recording leaves the claim to run out, after which the relay's next
 * publication of the event's still open outbox row makes the attempt. False: another run has it.
 */
export async function claimDeliveryAttempt(db: Db, c: AttemptClaim): Promise<boolean> {
  const claimed = await db.$executeRaw`
    UPDATE webhook_events SET next_attempt_at = ${c.until}::timestamptz
     WHERE id = ${c.eventId}::uuid AND status = 'PENDING' AND attempt_count = ${c.attemptCount}::int
       AND next_attempt_at = ${c.dueAt}::timestamptz`;
  return claimed === 1;
}
