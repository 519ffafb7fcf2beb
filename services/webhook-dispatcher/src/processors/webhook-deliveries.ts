import { completeOutbox } from '@mm/db/outbox';
import { type Db } from '@mm/db';
import { claimDueDelivery } from '@mm/db/webhooks';
import type { Logger } from '@mm/observability';
import type { JobHandler, OutboxPublisher, WebhookDeliveryJob } from '@mm/queues';
import type { WebhookConnections } from '../connections.js';
import { NO_ACTIVE_KEY } from '../merchant-reasons.js';
import { sendWebhook, type SendResult } from '../send-webhook.js';
import { resolveTarget, type Lookup } from '../target-guard.js';
import { recordAttempt } from '../use-cases/record-attempt.js';

export interface WebhookDeliveriesDeps {
  db: Db;
  /** The secret of the merchant's newest active key (decisions 9), or null when it has none. */
  signingSecret(merchantId: string): Promise<string | null>;
  publisher: OutboxPublisher;
  scheduleMs: readonly number[];
  timeoutMs: number;
  allowPrivate: boolean;
  /** Kept-alive connections, one pool per target and checked address (connections.ts). */
  connections: WebhookConnections;
  logger: Logger;
  /** Each recorded attempt: what became of the event (DELIVERED, RETRY_SCHEDULED, ABANDONED) and how long the merchant took. */
  onAttempt?(recordedAs: string, result: SendResult): void;
  /** Injected in tests to resolve names without a network. */
  lookup?: Lookup;
}

/** A job may run this much before its event's next_attempt_at (clock skew between hosts). */
const EARLY_SLACK_MS = 1000;
/**
 * A claimed attempt stays this run's for its request's time bound and this much more (the address check,
 * the key, recording it): past that, another run may make it.
 */
const CLAIM_SLACK_MS = 10_000;

function notSent(error: string, errorDetail = error): SendResult {
  return { statusCode: null, latencyMs: 0, error, errorDetail, success: false };
}

export type AttemptDeps = Pick<
  WebhookDeliveriesDeps,
  'signingSecret' | 'timeoutMs' | 'allowPrivate' | 'connections' | 'lookup'
>;

/**
 * Guard, key, request: whatever stops the attempt is its recorded error, never an exception. The guard
 * runs on every attempt, kept-alive connection or not: the request then goes over a connection to the
 * address it has just checked.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  event: { id: string; merchantId: string; payload: unknown; body?: string | null },
  targetUrl: string,
): Promise<SendResult> {
  const target = await resolveTarget(targetUrl, { allowPrivate: deps.allowPrivate, lookup: deps.lookup });
  if (!target.ok) return notSent(target.reason, target.detail);
  const secret = await deps.signingSecret(event.merchantId);
  if (!secret) return notSent(NO_ACTIVE_KEY);
  return sendWebhook({
    url: target.url,
    connectTo: target.connectTo,
    // The bytes recorded with the event; a row written around recordWebhookEvent (a test's) has only its payload.
    body: event.body ?? JSON.stringify(event.payload),
    secret,
    eventId: event.id,
    timeoutMs: deps.timeoutMs,
    connections: deps.connections,
  });
}

/**
 * One delivery attempt of one webhook event. The database decides what to do, not the job: BullMQ
 * may run a job twice, and the relay may re-publish a row whose job already ran.
 */
export function webhookDeliveriesHandler(deps: WebhookDeliveriesDeps): JobHandler<WebhookDeliveryJob> {
  return async ({ outbox_id: outboxId, event_id: eventId }) => {
    // The usual run, due: claimed in the statement that finds it due, so another run of this event's job at
    // the same moment sends nothing. A job may run a little before next_attempt_at (clock skew between hosts).
    const event = await claimDueDelivery(
      deps.db,
      eventId,
      new Date(Date.now() + EARLY_SLACK_MS),
      new Date(Date.now() + deps.timeoutMs + CLAIM_SLACK_MS),
    );
    if (!event) {
      const current = await deps.db.webhookEvent.findUnique({ where: { id: eventId }, select: { status: true } });
      if (!current) deps.logger.warn({ eventId }, 'webhook job for an unknown event; dropped');
      // Delivered or abandoned already: a duplicate run. Its outbox row is done (idempotent).
      else if (current.status !== 'PENDING') await completeOutbox(deps.db, outboxId);
      // Else held behind an earlier event of its transaction, a stale re-publication of a run whose next
      // attempt is later, or claimed by another run: that other job does the work.
      return;
    }

    const attemptNo = event.attemptCount + 1;
    const targetUrl = event.targetUrl ?? '';
    const attemptedAt = new Date();
    const result = await attemptDelivery(deps, event, targetUrl);
    const recorded = await recordAttempt(
      deps.db,
      { eventId, outboxId, attemptNo, targetUrl, attemptedAt, finishedAt: new Date(), result },
      deps.scheduleMs,
    );
    deps.onAttempt?.(recorded.recordedAs, result);
    deps.logger.info(
      {
        eventId,
        transaction_id: event.transactionId,
        attemptNo,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.errorDetail,
        outcome: recorded.recordedAs,
        nextAttemptAt: recorded.nextAttemptAt,
      },
      'webhook attempt',
    );
    await deps.publisher.publish(recorded.publish);
  };
}
