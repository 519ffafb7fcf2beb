import type { Server } from 'node:http';
import { createDb, findOverdueOutbox } from '@mm/db';
import { assertRedisNoEviction, createHealthRouter, createLogger, createMetricsRegistry, startHealthServer, type Logger } from '@mm/observability';
import { operatorAdapterFromEnv, type OperatorAdapter } from '@mm/operators';
import {
  AfterCommit, createOutboxPublisher, createRedisConnection, createWorker, refundRequests, startOutboxRelay,
  webhookDeliveries, type ProducerOptions, type QueueDefinition,
} from '@mm/queues';
import type { RefundEnv } from './env.js';
import { executeRefundProcessor } from './processors/execute-refund.js';

export interface RefundWorkerOverrides {
  logger?: Logger;
  adapter?: OperatorAdapter;
  jobOptions?: ProducerOptions['jobOptions'];
}

export async function startRefundWorker(env: RefundEnv, overrides: RefundWorkerOverrides = {}): Promise<{ port: number; stop(): Promise<void> }> {
  const logger = overrides.logger ?? createLogger('refund-worker', env.LOG_LEVEL);
  const db = createDb({ databaseUrl: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE });
  const redis = createRedisConnection(env.REDIS_URL);
  await assertRedisNoEviction(redis);
  const adapter = overrides.adapter ?? operatorAdapterFromEnv(env);
  const outbox = createOutboxPublisher(
    [refundRequests, webhookDeliveries] as QueueDefinition<object>[],
    { connection: redis, redisPrefix: env.REDIS_PREFIX, jobOptions: overrides.jobOptions },
    logger,
  );
  const afterCommit = new AfterCommit(outbox.publisher, redis, env.REDIS_PREFIX);
  const relay = startOutboxRelay({
    publisher: outbox.publisher,
    topics: [refundRequests.name],
    findOverdue: (topics, before) => findOverdueOutbox(db, topics, before),
    graceMs: env.OUTBOX_GRACE_MS,
    intervalMs: env.OUTBOX_RELAY_INTERVAL_MS,
    onError: (err) => logger.warn({ err }, 'outbox relay pass failed'),
  });
  const workerConnection = createRedisConnection(env.REDIS_URL);
  const worker = createWorker(refundRequests, { connection: workerConnection, redisPrefix: env.REDIS_PREFIX, concurrency: 10 },
    executeRefundProcessor({ db, adapter, afterCommit }));
  worker.on('failed', (job, err) => logger.warn({ err, jobId: job?.id, attempts: job?.attemptsMade }, 'refund job failed'));
  // An 'error' event without a listener would crash the process (BullMQ reconnects by itself).
  worker.on('error', (err) => logger.error({ err }, 'worker error'));
  await worker.waitUntilReady();
  const health: Server = await startHealthServer(
    env.REFUND_WORKER_PORT,
    createHealthRouter({ database: () => db.$queryRaw`SELECT 1`, redis: () => redis.ping() }, createMetricsRegistry('refund-worker')),
  );
  return {
    port: (health.address() as { port: number }).port,
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
