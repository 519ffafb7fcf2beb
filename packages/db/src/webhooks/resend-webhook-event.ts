import type { Tx } from '../database/index.js';
import { HELD, type OutboxRow } from '../outbox/index.js';
import { lockPaymentRow } from './lock-payment-row.js';
import { WEBHOOK_TOPIC } from './record-webhook-event.js';

/**
 * Decisions 9: an abandoned delivery can be re-sent by hand (back-office). The event goes back to
 * PENDING with its attempt_count kept (attempt numbers keep counting, their history stays whole) and
 * gets a fresh round of attempts. Its outbox row (id = event id) is re-opened under a new run, so the
 * new job id cannot collide with a job of the earlier round still kept in Redis.
 *
 * Order still holds: when another event of the transaction is being delivered, this one is held
 * and released when that one ends, like a new event would be.
 *
 * Runs in the caller's database transaction (the back-office writes its audit row in it too). Returns
 * the outbox row to publish after commit (the relay publishes it anyway once overdue), or null when
 * the event does not exist or is not ABANDONED. A held row is returned too: the publisher skips it.
 */
export async function resendWebhookEvent(tx: Tx, eventId: string, now = new Date()): Promise<OutboxRow | null> {
  const event = await tx.webhookEvent.findUnique({
    where: { id: eventId },
    select: { status: true, transactionId: true, attemptCount: true },
  });
  if (!event || event.status !== 'ABANDONED') return null;
  await lockPaymentRow(tx, event.transactionId);

  const busy = event.transactionId
    ? await tx.webhookEvent.findFirst({
        where: { transactionId: event.transactionId, status: 'PENDING' },
        select: { id: true },
      })
    : null;
  const { count } = await tx.webhookEvent.updateMany({
    where: { id: eventId, status: 'ABANDONED' },
    data: { status: 'PENDING', nextAttemptAt: busy ? null : now, updatedAt: now },
  });
  if (count === 0) return null;

  const availableAt = busy ? HELD : now;
  const row = await tx.outbox.upsert({
    where: { id: eventId },
    // A fresh round: whatever runs failed before (and a parking they led to) no longer count.
    update: { completedAt: null, availableAt, run: { increment: 1 }, failedRuns: 0, parkedAt: null },
    // The row was deleted by retention after its last round: every earlier round's run is below the
    // attempts made so far (each round made at least one), so this run's job id is a new one.
    create: {
      id: eventId,
      topic: WEBHOOK_TOPIC,
      payload: { event_id: eventId },
      availableAt,
      run: event.attemptCount + 1,
    },
  });
  return {
    id: row.id,
    topic: WEBHOOK_TOPIC,
    payload: { event_id: eventId },
    availableAt: row.availableAt,
    run: row.run,
  };
}
