import type { Prisma, WebhookEvent } from '@mm/db';

/** An event with its delivery attempts, as GET /webhook-events reads them. */
export type WebhookEventWithAttempts = WebhookEvent & { attempts: Prisma.WebhookAttemptModel[] };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * decisions 9: every delivery attempt (status code, latency, error) the merchant may see. The attempt's
 * errorDetail is staff-only (it can name addresses) and is never shown here.
 */
export function presentWebhookEvent(e: WebhookEventWithAttempts) {
  return {
    event_id: e.id,
    event: e.eventType,
    transaction_id: e.transactionId,
    status: e.status,
    target_url: e.targetUrl,
    attempt_count: e.attemptCount,
    next_attempt_at: iso(e.nextAttemptAt),
    delivered_at: iso(e.deliveredAt),
    created_at: iso(e.createdAt),
    payload: e.payload,
    attempts: e.attempts.map(presentAttempt),
  };
}

function presentAttempt(a: Prisma.WebhookAttemptModel) {
  return {
    attempt_no: a.attemptNo,
    status_code: a.statusCode,
    latency_ms: a.latencyMs,
    error: a.error,
    success: a.success,
    at: iso(a.createdAt),
  };
}
