import { directDatabaseUrl } from '@mm/config';
import { listenForReferenceChanges, ReferenceCache, SecretBox } from '@mm/db';
import { newestActiveSecret } from '@mm/db/merchants';
import { Histogram, LATENCY_BUCKETS, referenceChangesGauge, type Logger } from '@mm/observability';
import { startWorkerService, type RunningWorkerService } from '@mm/worker-runtime';
import { WebhookConnections } from './connections.js';
import type { WebhookDispatcherEnv } from './env.js';
import { webhookDeliveriesHandler } from './processors/webhook-deliveries.js';

export type WebhookDispatcher = RunningWorkerService;

/**
 * The dispatcher: one delivery attempt per webhook-deliveries job, signed with the merchant's newest
 * key (kept in memory, dropped when PostgreSQL notifies a key change), on the worker runtime (its
 * relay re-publishes delivery rows whose jobs were lost).
 */
export function startWebhookDispatcher(
  env: WebhookDispatcherEnv,
  overrides: { logger?: Logger } = {},
): Promise<WebhookDispatcher> {
  // Fails fast on a malformed MASTER_KEY, before any connection is opened.
  const box = new SecretBox(env.MASTER_KEY);
  return startWorkerService({
    service: 'webhook-dispatcher',
    env,
    internalPort: env.WEBHOOK_DISPATCHER_PORT,
    logger: overrides.logger,
    async setup(ctx) {
      const { db, logger, metrics } = ctx;
      const referenceChanges = await listenForReferenceChanges({
        databaseUrl: directDatabaseUrl(env),
        onError: (err) =>
          logger.warn(
            { err },
            'reference changes: LISTEN connection failed; signing keys are read from the database until it is back',
          ),
      });
      ctx.onRelease(() => referenceChanges.close());
      referenceChangesGauge(metrics, referenceChanges);
      const secrets = new ReferenceCache({
        feed: referenceChanges,
        ttlMs: env.REFERENCE_CACHE_TTL_S * 1000,
        max: 10_000,
        load: (merchantId) => newestActiveSecret(db, box, merchantId),
      });
      const attempts = new Histogram({
        name: 'mm_webhook_attempts_seconds',
        help: 'Webhook delivery attempts by what became of the event (DELIVERED, RETRY_SCHEDULED, ABANDONED, DUPLICATE) and whether the merchant answered 2xx, with how long it took.',
        labelNames: ['outcome', 'success'],
        buckets: LATENCY_BUCKETS,
        registers: [metrics],
      });
      // As many connections to one target as deliveries run at once: none waits for a connection.
      const connections = new WebhookConnections({ maxSocketsPerTarget: env.WEBHOOK_CONCURRENCY });
      ctx.onRelease(async () => connections.close());
      logger.info(
        { concurrency: env.WEBHOOK_CONCURRENCY, allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
        'webhook dispatcher settings',
      );
      return {
        jobs: {
          'webhook-deliveries': {
            concurrency: env.WEBHOOK_CONCURRENCY,
            handler: webhookDeliveriesHandler({
              db,
              signingSecret: (merchantId) => secrets.get(merchantId),
              publisher: ctx.publisher,
              scheduleMs: env.retryScheduleMs,
              timeoutMs: env.WEBHOOK_TIMEOUT_MS,
              allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
              connections,
              logger,
              onAttempt: (outcome, result) =>
                attempts.observe({ outcome, success: String(result.success) }, result.latencyMs / 1000),
            }),
          },
        },
      };
    },
  });
}
