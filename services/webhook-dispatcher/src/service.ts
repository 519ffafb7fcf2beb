import { createServiceDb, findOverdueOutbox, listenForReferenceChanges, newestActiveSecret, ReferenceCache, SecretBox } from '@mm/db';
import {
  assertRedisNoEviction, createLogger, createMetricsRegistry, Histogram, LATENCY_BUCKETS, referenceChangesGauge, startInternalServer, type Logger,
} from '@mm/observability';
import {
  createRedisConnection, createWorker, OutboxPublisher, QueueProducer, startOutboxRelay, webhookDeliveries,
  type OutboxRelay,
} from '@mm/queues';
import type { WebhookDispatcherEnv } from './env.js';
import { deliverWebhook } from './processors/deliver-webhook.js';

export interface WebhookDispatcher {
  /** Stops taking work, finishes the attempts in flight, then closes every connection. */
  stop(): Promise<void>;
  relay: OutboxRelay;
  /** Its internal port, /health, /ready and /metrics (useful when WEBHOOK_DISPATCHER_PORT is 0). */
  port: number;
  internalUrl: string;
}

/**
 * Wires the dispatcher: the BullMQ worker delivering attempts, the relay re-publishing delivery rows
 * whose jobs were lost, and the health server. Delivery rows are this service's own work, so its
 * relay watches the webhook-deliveries topic only.
 */
export async function startWebhookDispatcher(env: WebhookDispatcherEnv, overrides: { logger?: Logger } = {}): Promise<WebhookDispatcher> {
  const logger = overrides.logger ?? createLogger('webhook-dispatcher', env.LOG_LEVEL);
  // Fails fast on a malformed MASTER_KEY, before any connection is opened.
  const box = new SecretBox(env.MASTER_KEY);
  // Refused in production while demo credentials work on this database (@mm/db demo-data.ts).
  const db = await createServiceDb({ databaseUrl: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, nodeEnv: env.NODE_ENV });
  const redis = createRedisConnection(env.REDIS_URL);
  try {
    await assertRedisNoEviction(redis);
  } catch (err) {
    redis.disconnect();
    await db.$disconnect();
    throw err;
  }

  // A key lookup and its decryption per delivery, unless kept: dropped whenever PostgreSQL notifies a
  // key change, so a delivery after a rotation is signed with the new key.
  const referenceChanges = await listenForReferenceChanges({
    databaseUrl: env.DATABASE_URL,
    onError: (err) => logger.warn({ err }, 'reference changes: LISTEN connection failed; signing keys are read from the database until it is back'),
  });
  const secrets = new ReferenceCache({
    feed: referenceChanges, ttlMs: env.REFERENCE_CACHE_TTL_S * 1000, max: 10_000, load: (merchantId) => newestActiveSecret(db, box, merchantId),
  });
  const metrics = createMetricsRegistry('webhook-dispatcher');
  referenceChangesGauge(metrics, referenceChanges);
  const attempts = new Histogram({
    name: 'mm_webhook_attempts_seconds',
    help: 'Webhook delivery attempts by what became of the event (DELIVERED, RETRY_SCHEDULED, ABANDONED, DUPLICATE) and whether the merchant answered 2xx, with how long it took.',
    labelNames: ['outcome', 'success'],
    buckets: LATENCY_BUCKETS,
    registers: [metrics],
  });

  const producer = new QueueProducer(webhookDeliveries, { connection: redis, redisPrefix: env.REDIS_PREFIX });
  const publisher = new OutboxPublisher([producer], logger);

  const worker = createWorker(
    webhookDeliveries,
    { connection: redis, redisPrefix: env.REDIS_PREFIX, concurrency: env.WEBHOOK_CONCURRENCY, lockMs: env.WORKER_LOCK_MS, logger, metrics },
    deliverWebhook({
      db,
      signingSecret: (merchantId) => secrets.get(merchantId),
      publisher,
      scheduleMs: env.retryScheduleMs,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      logger,
      onAttempt: (outcome, result) => attempts.observe({ outcome, success: String(result.success) }, result.latencyMs / 1000),
    }),
  );
  // Ready before start returns: a stop() racing the worker's connection would leave BullMQ timers behind.
  await worker.waitUntilReady();

  const relay = startOutboxRelay({
    publisher,
    topics: publisher.topics(),
    findOverdue: (topics, before) => findOverdueOutbox(db, topics, before),
    graceMs: env.OUTBOX_GRACE_MS,
    intervalMs: env.OUTBOX_RELAY_INTERVAL_MS,
    onError: (err) => logger.warn({ err }, 'outbox relay pass failed'),
  });

  const internal = await startInternalServer({
    port: env.WEBHOOK_DISPATCHER_PORT, metrics, logger, readiness: { database: () => db.$queryRaw`SELECT 1`, redis: () => redis.ping() },
  });
  const { port } = internal;
  logger.info({ port, concurrency: env.WEBHOOK_CONCURRENCY, allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS }, 'webhook dispatcher started');

  let stopping: Promise<void> | null = null;
  const stop = async () => {
    // Order: no new publications, then let the attempts in flight finish (they publish their next
    // run through the producer), then close what they used.
    await relay.stop();
    await worker.close();
    await producer.close();
    await internal.close();
    await redis.quit().catch(() => redis.disconnect());
    await referenceChanges.close();
    await db.$disconnect();
    logger.info('webhook dispatcher stopped');
  };
  return {
    relay,
    port,
    internalUrl: internal.url,
    stop: () => (stopping ??= stop()),
  };
}
