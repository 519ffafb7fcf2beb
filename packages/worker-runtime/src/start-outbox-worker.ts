import type { CommonEnv, NodeEnvEnv, RelayEnv } from '@mm/config';
import { createServiceDb, findOverdueOutbox, type Db } from '@mm/db';
import { assertRedisNoEviction, createLogger, createMetricsRegistry, startInternalServer, type Logger, type Registry } from '@mm/observability';
import {
  AfterCommit, createOutboxPublisher, createRedisConnection, createWorker, startOutboxRelay,
  type JobHandler, type OutboxQueueDefinition, type OutboxTopic, type ProducerOptions, type QueueCatalog, type QueueDefinition,
} from '@mm/queues';
import { parkFailingJobs } from './job-parking.js';

export interface OutboxWorkerOptions<K extends OutboxTopic> {
  /** Service name, for logs and metrics. */
  service: string;
  env: CommonEnv & NodeEnvEnv & RelayEnv;
  /** Its internal port: /health, /ready and /metrics (0: any free port). A worker serves nothing else. */
  healthPort: number;
  /** The queue this worker consumes; its outbox rows are re-published by this worker's relay. */
  consumes: QueueDefinition<QueueCatalog[K], K>;
  /** Queues of the outbox rows its handler writes (e.g. webhook deliveries). */
  produces: OutboxQueueDefinition[];
  concurrency: number;
  logger?: Logger;
  jobOptions?: ProducerOptions['jobOptions'];
  /** `metrics` is the process's registry: instrument the operator adapter there (instrumentAdapter). */
  handler(deps: { db: Db; afterCommit: AfterCommit; logger: Logger; metrics: Registry }): JobHandler<QueueCatalog[K]>;
}

export interface RunningOutboxWorker {
  port: number;
  /** /health, /ready and /metrics. */
  internalUrl: string;
  stop(): Promise<void>;
}

/**
 * The process shape of a worker fed by outbox rows: database and Redis (refused unless noeviction),
 * the BullMQ worker, a publisher for what it produces, the relay that re-publishes its own lost jobs,
 * health endpoints, and a stop() that finishes jobs in flight before closing connections.
 */
export async function startOutboxWorker<K extends OutboxTopic>(o: OutboxWorkerOptions<K>): Promise<RunningOutboxWorker> {
  const { env } = o;
  const logger = o.logger ?? createLogger(o.service, env.LOG_LEVEL);
  // First: refused in production while demo credentials work on this database (@mm/db demo-data.ts).
  const db = await createServiceDb({ databaseUrl: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, nodeEnv: env.NODE_ENV });
  const metrics = createMetricsRegistry(o.service);
  const redis = createRedisConnection(env.REDIS_URL);
  await assertRedisNoEviction(redis);
  const outbox = createOutboxPublisher(
    [o.consumes, ...o.produces],
    { connection: redis, redisPrefix: env.REDIS_PREFIX, jobOptions: o.jobOptions },
    logger,
  );
  const afterCommit = new AfterCommit(outbox.publisher, redis, env.REDIS_PREFIX, metrics);
  const relay = startOutboxRelay({
    publisher: outbox.publisher,
    topics: [o.consumes.name],
    findOverdue: (topics, before) => findOverdueOutbox(db, topics, before),
    graceMs: env.OUTBOX_GRACE_MS,
    intervalMs: env.OUTBOX_RELAY_INTERVAL_MS,
    onError: (err) => logger.warn({ err }, 'outbox relay pass failed'),
    onFailedRun: parkFailingJobs({ db, logger, metrics, maxRuns: env.OUTBOX_MAX_FAILED_RUNS }),
  });
  const workerConnection = createRedisConnection(env.REDIS_URL);
  const worker = createWorker(o.consumes, { connection: workerConnection, redisPrefix: env.REDIS_PREFIX, concurrency: o.concurrency, lockMs: env.WORKER_LOCK_MS, logger, metrics },
    o.handler({ db, afterCommit, logger, metrics }));
  // Ready before start returns: a stop() racing the worker's connection would leave BullMQ timers behind.
  await worker.waitUntilReady();
  const internal = await startInternalServer({
    port: o.healthPort, metrics, logger, readiness: { database: () => db.$queryRaw`SELECT 1`, redis: () => redis.ping() },
  });
  return {
    port: internal.port,
    internalUrl: internal.url,
    async stop() {
      await internal.close();
      await relay.stop();
      await worker.close();
      await outbox.close();
      workerConnection.disconnect();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}
