import { randomUUID } from 'node:crypto';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Tx } from '../database/index.js';
import { Prisma } from '../generated/prisma/client.js';
import { HELD, type OutboxRow } from '../outbox/index.js';

export const WEBHOOK_TOPIC = QUEUE_NAMES.webhookDeliveries;

export interface NewWebhookEvent {
  merchantId: string;
  transactionId: string;
  refundId?: string;
  eventType: string;
  targetUrl: string | null;
  buildPayload(eventId: string): Record<string, unknown>;
}

/** The CTEs `earlier` (is an earlier event still being delivered: `held`), `event` and `job` of one event. */
export interface WebhookEventStatement {
  ctes: Prisma.Sql;
  /** Its delivery job to publish after the commit; null when held behind an earlier event, or without a target. */
  outboxRow(held: boolean): OutboxRow | null;
}

/**
 * An event and its delivery job as CTEs, for a statement that also does the change it reports (a
 * transition): one round trip for the check, the event and its job on every terminal move. Events of
 * one transaction go out in order: while an earlier one is still being delivered, the new job is held,
 * and recordDeliveryOutcome releases it when that one ends. Callers hold the transaction's row lock, so
 * two events of one transaction never race here. Without a target the event is recorded as NO_TARGET,
 * with no job.
 */
export function webhookEventStatement(e: NewWebhookEvent, now = new Date()): WebhookEventStatement {
  const id = randomUUID();
  // Built once, in the builder's key order: the bytes every attempt sends and signs (jsonb would lose the order).
  const body = JSON.stringify(e.buildPayload(id));
  if (!e.targetUrl) {
    return {
      ctes: Prisma.sql`earlier AS (SELECT false AS held),
      event AS (
        INSERT INTO webhook_events (id, merchant_id, transaction_id, refund_id, event_type, payload, body, target_url, status)
        VALUES (${id}::uuid, ${e.merchantId}::uuid, ${e.transactionId}::uuid, ${e.refundId ?? null}::uuid, ${e.eventType}::text,
                ${body}::jsonb, ${body}::text, NULL, 'NO_TARGET'))`,
      outboxRow: () => null,
    };
  }
  const job = { event_id: id };
  return {
    ctes: Prisma.sql`earlier AS (
      SELECT EXISTS (SELECT 1 FROM webhook_events WHERE transaction_id = ${e.transactionId}::uuid AND status = 'PENDING') AS held),
    event AS (
      INSERT INTO webhook_events (id, merchant_id, transaction_id, refund_id, event_type, payload, body, target_url, next_attempt_at)
      SELECT ${id}::uuid, ${e.merchantId}::uuid, ${e.transactionId}::uuid, ${e.refundId ?? null}::uuid, ${e.eventType}::text,
             ${body}::jsonb, ${body}::text, ${e.targetUrl}::text, CASE WHEN held THEN NULL ELSE ${now}::timestamptz END
        FROM earlier),
    job AS (
      INSERT INTO outbox (id, topic, payload, available_at)
      SELECT ${id}::uuid, ${WEBHOOK_TOPIC}::text, ${JSON.stringify(job)}::jsonb, CASE WHEN held THEN ${HELD}::timestamptz ELSE ${now}::timestamptz END
        FROM earlier)`,
    outboxRow: (held) => (held ? null : { id, topic: WEBHOOK_TOPIC, payload: job, availableAt: now, run: 0 }),
  };
}

/** Records an event and its delivery job on their own, in one statement (webhookEventStatement). */
export async function recordWebhookEvent(tx: Tx, e: NewWebhookEvent): Promise<OutboxRow | null> {
  const statement = webhookEventStatement(e);
  const [row] = await tx.$queryRaw<{ held: boolean }[]>`WITH ${statement.ctes} SELECT held FROM earlier`;
  if (!row) throw new Error('webhook event not recorded');
  return statement.outboxRow(row.held);
}
