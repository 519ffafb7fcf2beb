import { randomUUID } from 'node:crypto';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Tx } from '../client.js';
import { HELD, type OutboxRow } from '../outbox.js';

export const WEBHOOK_TOPIC = QUEUE_NAMES.webhookDeliveries;

export interface NewWebhookEvent {
  merchantId: string;
  transactionId: string;
  refundId?: string;
  eventType: string;
  targetUrl: string | null;
  buildPayload(eventId: string): Record<string, unknown>;
}

/**
 * Records an event and its delivery job. Events of one transaction go out in order: while an earlier
 * one is still being delivered, the new job is held, and recordDeliveryOutcome releases it when that
 * one ends. Callers hold the transaction's row lock, so two events of one transaction never race here.
 */
export async function recordWebhookEvent(tx: Tx, e: NewWebhookEvent): Promise<OutboxRow | null> {
  const id = randomUUID();
  if (!e.targetUrl) {
    await tx.webhookEvent.create({
      data: { id, merchantId: e.merchantId, transactionId: e.transactionId, refundId: e.refundId ?? null, eventType: e.eventType, payload: e.buildPayload(id) as object, targetUrl: null, status: 'NO_TARGET' },
    });
    return null;
  }
  // One statement for the check, the event and its job: every terminal move of every cash-in writes them.
  const now = new Date();
  const job = { event_id: id };
  const [row] = await tx.$queryRaw<{ held: boolean }[]>`
    WITH earlier AS (
      SELECT EXISTS (SELECT 1 FROM webhook_events WHERE transaction_id = ${e.transactionId}::uuid AND status = 'PENDING') AS held),
    event AS (
      INSERT INTO webhook_events (id, merchant_id, transaction_id, refund_id, event_type, payload, target_url, next_attempt_at)
      SELECT ${id}::uuid, ${e.merchantId}::uuid, ${e.transactionId}::uuid, ${e.refundId ?? null}::uuid, ${e.eventType}::text,
             ${JSON.stringify(e.buildPayload(id))}::jsonb, ${e.targetUrl}::text, CASE WHEN held THEN NULL ELSE ${now}::timestamptz END
        FROM earlier),
    job AS (
      INSERT INTO outbox (id, topic, payload, available_at)
      SELECT ${id}::uuid, ${WEBHOOK_TOPIC}::text, ${JSON.stringify(job)}::jsonb, CASE WHEN held THEN ${HELD}::timestamptz ELSE ${now}::timestamptz END
        FROM earlier)
    SELECT held FROM earlier`;
  if (!row) throw new Error('webhook event not recorded');
  return row.held ? null : { id, topic: WEBHOOK_TOPIC, payload: job, availableAt: now, run: 0 };
}
