import { lockMerchant } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import { lockPaymentRow, recordWebhookEvent } from '@mm/db/webhooks';
import { auditAction, type AuditContext } from '../audit-context.js';
import type { ResendWebhooksDeps } from './resend-webhooks.js';

/** The one event type interface v1 defines, and the only one a test may send (see sendTestWebhook). */
const TEST_EVENT_TYPE = 'transaction.status_changed';

export type TestWebhookOutcome =
  | { kind: 'queued'; eventId: string; copyOf: string; targetUrl: string }
  | 'not_found'
  /** No default webhook URL: nowhere to send it. */
  | 'no_url'
  /** No payment has reached a final state yet: there is no event to send again. */
  | 'no_event';

/**
 * "Send a test event": interface v1 defines no test event type, and a made-up payment's status could be
 * taken for a real one by the merchant's handler. So the test sends again the merchant's newest real
 * `transaction.status_changed` event, with its facts unchanged and a new event_id, to the merchant's
 * default URL, through the normal path (event row, outbox job, dispatcher, signature, retries). Interface
 * v1 already tells receivers that one transaction may be notified several times. The event keeps its
 * transaction: it is delivered in order with that transaction's other events (the row lock, as a move).
 */
export async function sendTestWebhook(
  deps: ResendWebhooksDeps,
  context: AuditContext,
  input: { merchantId: string },
): Promise<TestWebhookOutcome> {
  const result = await deps.db.$transaction(async (tx) => {
    const merchant = await lockMerchant(tx, input.merchantId);
    if (!merchant) return { outcome: 'not_found' as const };
    if (!merchant.webhookUrl) return { outcome: 'no_url' as const };
    const latest = await tx.webhookEvent.findFirst({
      where: { merchantId: merchant.id, eventType: TEST_EVENT_TYPE, transactionId: { not: null } },
      orderBy: [{ createdAt: 'desc' }, { seq: 'desc' }],
      select: { id: true, transactionId: true, body: true, payload: true },
    });
    if (!latest?.transactionId) return { outcome: 'no_event' as const };
    await lockPaymentRow(tx, latest.transactionId);
    // The recorded bytes keep the builder's key order (jsonb does not): the copy keeps it too.
    const original = JSON.parse(latest.body ?? JSON.stringify(latest.payload)) as Record<string, unknown>;
    let eventId = '';
    const row = await recordWebhookEvent(tx, {
      merchantId: merchant.id,
      transactionId: latest.transactionId,
      eventType: TEST_EVENT_TYPE,
      targetUrl: merchant.webhookUrl,
      buildPayload: (id) => {
        eventId = id;
        return { ...original, event_id: id };
      },
    });
    await recordAudit(tx, {
      ...context,
      action: auditAction(context, 'webhook.test'),
      targetType: 'webhook_event',
      targetId: eventId,
      before: null,
      after: { copyOf: latest.id, transactionId: latest.transactionId, targetUrl: merchant.webhookUrl },
    });
    return {
      outcome: { kind: 'queued' as const, eventId, copyOf: latest.id, targetUrl: merchant.webhookUrl },
      row,
    };
  });
  // Null when held behind an earlier event of the transaction: the dispatcher releases it after that one.
  if ('row' in result && result.row) await deps.publisher.publish([result.row]);
  return result.outcome;
}
