import type { Server } from 'node:http';
import { createDb, findOverdueOutbox } from '@mm/db';
import { assertRedisNoEviction, createHealthRouter, createLogger, createMetricsRegistry, startHealthServer, type Logger } from '@mm/observability';
import { operatorAdapterFromEnv, type OperatorAdapter } from '@mm/operators';
import {
  AfterCommit, createOutboxPublisher, createRedisConnection, createWorker, expiryChecks, startOutboxRelay,
  webhookDeliveries, type ProducerOptions, type QueueDefinition,
} from '@mm/queues';
import type { ExpiryEnv } from './env.js';
import { checkExpiryProcessor } from './processors/check-expiry.js';

export interface ExpiryOverrides {
  logger?: Logger;
  adapter?: OperatorAdapter;
  jobOptions?: ProducerOptions['jobOptions'];
}

export async function startExpiryWorker(env: ExpiryEnv, overrides: ExpiryOverrides = {}): Promise<{ stop(): Promise<void> }> {
  const logger = overrides.logger ?? createLogger('expiry-worker', env.LOG_LEVEL);
  const db = createDb({ databaseUrl: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE });
  const redis = createRedisConnection(env.REDIS_URL);
  await assertRedisNoEviction(redis);
  const adapter = overrides.adapter ?? operatorAdapterFromEnv(env);
  const outbox = createOutboxPublisher(
    [expiryChecks, webhookDeliveries] as QueueDefinition<object>[],
    { connection: redis, redisPrefix: env.REDIS_PREFIX, jobOptions: overrides.jobOptions },
    logger,
  );
  const afterCommit = new AfterCommit(outbox.publisher, redis, env.REDIS_PREFIX);
  const relay = startOutboxRelay({
    publisher: outbox.publisher,
    topics: [expiryChecks.name],
    findOverdue: (topics, before) => findOverdueOutbox(db, topics, before),
    graceMs: env.OUTBOX_GRACE_MS,
    intervalMs: env.OUTBOX_RELAY_INTERVAL_MS,
    onError: (err) => logger.warn({ err }, 'outbox relay pass failed'),
  });
  const workerConnection = createRedisConnection(env.REDIS_URL);
  const worker = createWorker(expiryChecks, { connection: workerConnection, redisPrefix: env.REDIS_PREFIX, concurrency: 20 },
    checkExpiryProcessor({ db, adapter, afterCommit, logger }));
  worker.on('failed', (job, err) => logger.warn({ err, jobId: job?.id, attempts: job?.attemptsMade }, 'expiry check failed'));
  // An 'error' event without a listener would crash the process (BullMQ reconnects by itself).
  worker.on('error', (err) => logger.error({ err }, 'worker error'));
  // Ready before start() returns: a stop() racing the worker's connection would leave BullMQ timers behind.
  await worker.waitUntilReady();
  const health: Server = await startHealthServer(
    env.EXPIRY_WORKER_PORT,
    createHealthRouter({ database: () => db.$queryRaw`SELECT 1`, redis: () => redis.ping() }, createMetricsRegistry('expiry-worker')),
  );
  return {
    async stop() {
      await new Promise<void>((resolve) => health.close(() => resolve()));
      await relay.stop();
      await worker.close();
      await outbox.close();
      workerConnection.disconnect();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}
