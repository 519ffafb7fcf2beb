import { randomUUID } from 'node:crypto';
import { QUEUE_NAMES } from '@mm/queues/names';
import type { Tx } from './client.js';
import { HELD, insertOutbox, releaseOutbox, type OutboxRow } from './outbox.js';

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
 * one is still being delivered, the new job is held and released when that one ends. Callers hold
 * the transaction's row lock, so two events of one transaction never race here.
 */
export async function recordWebhookEvent(tx: Tx, e: NewWebhookEvent): Promise<OutboxRow | null> {
  const id = randomUUID();
  if (!e.targetUrl) {
    await tx.webhookEvent.create({
      data: { id, merchantId: e.merchantId, transactionId: e.transactionId, refundId: e.refundId ?? null, eventType: e.eventType, payload: e.buildPayload(id) as object, targetUrl: null, status: 'NO_TARGET' },
    });
    return null;
  }
  const earlier = await tx.webhookEvent.findFirst({ where: { transactionId: e.transactionId, status: 'PENDING' }, select: { id: true } });
  await tx.webhookEvent.create({
    data: { id, merchantId: e.merchantId, transactionId: e.transactionId, refundId: e.refundId ?? null, eventType: e.eventType, payload: e.buildPayload(id) as object, targetUrl: e.targetUrl, nextAttemptAt: earlier ? null : new Date() },
  });
  const row = await insertOutbox(tx, { id, topic: WEBHOOK_TOPIC, payload: { event_id: id }, availableAt: earlier ? HELD : new Date() });
  return earlier ? null : row;
}

/** After an event ends (delivered or abandoned): the next held event of its transaction may go. */
export async function releaseNextWebhookEvent(tx: Tx, transactionId: string | null): Promise<OutboxRow | null> {
  if (!transactionId) return null;
  const next = await tx.webhookEvent.findFirst({
    where: { transactionId, status: 'PENDING' },
    orderBy: { seq: 'asc' },
    select: { id: true },
  });
  if (!next) return null;
  await tx.webhookEvent.update({ where: { id: next.id }, data: { nextAttemptAt: new Date() } });
  return releaseOutbox(tx, next.id);
}
