import type { Worker } from 'bullmq';
import { databaseOptions, type CommonEnv, type NodeEnvEnv, type RelayEnv } from '@mm/config';
import { configurationErrorsOf, type Db, SecretBox } from '@mm/db';
import { createServiceDb } from '@mm/db/service-db';
import { findOverdueOutbox } from '@mm/db/outbox';
import {
  assertRedisNoEviction,
  createLogger,
  createMetricsRegistry,
  dbConfigurationErrorsCounter,
  startInternalServer,
  type Logger,
  type Registry,
} from '@mm/observability';
import {
  AfterCommit,
  createOutboxPublisher,
  createRedisConnection,
  createWorker,
  redisTargetOf,
  isOutboxTopic,
  OUTBOX_QUEUES,
  QUEUES,
  startOutboxRelay,
  type JobHandler,
  type OutboxPublisher,
  type OutboxRelay,
  type ProducerOptions,
  type QueueCatalog,
  type QueueName,
} from '@mm/queues';
import { parkFailingJobs } from './job-parking.js';

type Redis = ReturnType<typeof createRedisConnection>;

/** What a service's setup and its handlers work with: one of each per process. */
export interface WorkerContext {
  env: CommonEnv & NodeEnvEnv & RelayEnv;
  db: Db;
  /** For commands and producers; each worker gets its own blocking connection. */
  redis: Redis;
  logger: Logger;
  /** The process's registry: instrument the operator adapter there (instrumentAdapter). */
  metrics: Registry;
  /** Publishes outbox rows, of any outbox queue. */
  publisher: OutboxPublisher;
  afterCommit: AfterCommit;
  /** For a producer of a queue outside the outbox (the bridge's operator results). */
  producerOptions: ProducerOptions;
  /** Called first on stop, before the workers: what takes new work in (an HTTP server). */
  onStopIntake(close: () => Promise<void>): void;
  /** Called once the workers have finished their jobs: what the handlers used (a producer, a LISTEN connection). */
  onRelease(release: () => Promise<void>): void;
}

export interface JobSpec<K extends QueueName> {
  concurrency: number;
  /** What it returns is the job's return value (shown by the Bull dashboard). */
  handler: JobHandler<QueueCatalog[K], unknown>;
}

/** The handlers of a process, keyed by the queue each consumes; each payload typed from its queue. */
export type JobMap = { [K in QueueName]?: JobSpec<K> };

export interface WorkerServiceOptions<Info extends object> {
  /** Service name, for logs and metrics. */
  service: string;
  /** MASTER_KEY, where the service has one: operator accounts' credentials are then read by the start's mode check. */
  env: CommonEnv & NodeEnvEnv & RelayEnv & { MASTER_KEY?: string };
  /** /health, /ready and /metrics (0: any free port). */
  internalPort: number;
  logger?: Logger;
  /** Overrides of the queues' job options, e.g. shorter backoff delays in tests. */
  jobOptions?: ProducerOptions['jobOptions'];
  /** Builds what the handlers need and returns them, plus what start() should return besides its own fields. */
  setup(ctx: WorkerContext): Promise<{ jobs: JobMap; info?: Info }> | { jobs: JobMap; info?: Info };
}

export interface RunningWorkerService {
  /** The internal port: /health, /ready and /metrics. */
  port: number;
  internalUrl: string;
  relay: OutboxRelay;
  /** Stops taking work, lets the jobs in flight finish, then closes every connection. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The process shape of every worker service: database (refused in production while demo credentials
 * work) and Redis (refused unless noeviction), one BullMQ worker per handled queue, a publisher for
 * outbox rows, the relay that re-publishes its own outbox queues' lost jobs
 * and parks those that keep failing, health endpoints, and one stop order for all.
 */
export async function startWorkerService<Info extends object = object>(
  o: WorkerServiceOptions<Info>,
): Promise<RunningWorkerService & Info> {
  const { env } = o;
  const logger = o.logger ?? createLogger(o.service, env.LOG_LEVEL);
  const db = await createServiceDb({
    ...databaseOptions(env),
    nodeEnv: env.NODE_ENV,
    deploymentMode: env.DEPLOYMENT_MODE,
    secretBox: env.MASTER_KEY ? new SecretBox(env.MASTER_KEY) : null,
    onMisconfiguration: (problem, err) => logger.error({ err }, problem),
  });
  const redis = createRedisConnection(redisTargetOf(env));
  const intake: (() => Promise<void>)[] = [];
  const releases: (() => Promise<void>)[] = [];
  try {
    await assertRedisNoEviction(redis);
  } catch (err) {
    redis.disconnect();
    await db.$disconnect();
    throw err;
  }
  const metrics = createMetricsRegistry(o.service);
  dbConfigurationErrorsCounter(metrics, () => configurationErrorsOf(db));
  const producerOptions: ProducerOptions = {
    connection: redis,
    redisPrefix: env.REDIS_PREFIX,
    jobOptions: o.jobOptions,
  };

  // Every outbox queue: a handler may write rows of any of them, and each is one idle Queue object.
  const outbox = createOutboxPublisher(Object.values(OUTBOX_QUEUES), producerOptions, logger);
  const ctx: WorkerContext = {
    env,
    db,
    redis,
    logger,
    metrics,
    producerOptions,
    publisher: outbox.publisher,
    afterCommit: new AfterCommit(outbox.publisher, redis, env.REDIS_PREFIX, metrics),
    onStopIntake: (close) => {
      intake.push(close);
    },
    onRelease: (release) => {
      releases.push(release);
    },
  };
  let setupResult: Awaited<ReturnType<typeof o.setup>>;
  try {
    setupResult = await o.setup(ctx);
  } catch (err) {
    // A setup that failed half-way (a port taken, a LISTEN refused) leaves nothing open behind it.
    for (const close of intake) await close().catch(() => undefined);
    for (const release of releases) await release().catch(() => undefined);
    await outbox.close();
    redis.disconnect();
    await db.$disconnect();
    throw err;
  }
  const names = (Object.keys(setupResult.jobs) as QueueName[]).filter((name) => setupResult.jobs[name]);
  const relayTopics = names.filter(isOutboxTopic);
  const relay = startOutboxRelay({
    publisher: outbox.publisher,
    topics: relayTopics,
    findOverdue: (topics, before) => findOverdueOutbox(db, topics, before),
    graceMs: env.OUTBOX_GRACE_MS,
    intervalMs: env.OUTBOX_RELAY_INTERVAL_MS,
    onError: (err) => logger.warn({ err }, 'outbox relay pass failed'),
    ...parkFailingJobs({ db, logger, metrics, maxRuns: env.OUTBOX_MAX_FAILED_RUNS }),
  });
  const workers: { worker: Worker; connection: Redis }[] = names.map((name) => {
    const spec = setupResult.jobs[name] as JobSpec<typeof name>;
    const connection = createRedisConnection(redisTargetOf(env));
    const worker = createWorker(
      QUEUES[name],
      {
        connection,
        redisPrefix: env.REDIS_PREFIX,
        concurrency: spec.concurrency,
        lockMs: env.WORKER_LOCK_MS,
        logger,
        metrics,
      },
      spec.handler as JobHandler<QueueCatalog[typeof name], unknown>,
    );
    return { worker, connection };
  });
  // Ready before start returns: a stop() racing the workers' connections would leave BullMQ timers behind.
  await Promise.all(workers.map((w) => w.worker.waitUntilReady()));
  const internal = await startInternalServer({
    port: o.internalPort,
    metrics,
    logger,
    readiness: { database: () => db.$queryRaw`SELECT 1`, redis: () => redis.ping() },
  });
  logger.info({ port: internal.port, queues: names }, `${o.service} started`);

  let stopping: Promise<void> | null = null;
  const stop = async () => {
    // No new work in, then no new publications, then the jobs in flight finish (they may publish), then
    // what they used is released and the connections closed.
    for (const close of intake) await close();
    await internal.close();
    await relay.stop();
    await Promise.all(workers.map((w) => w.worker.close()));
    for (const release of releases) await release();
    await outbox.close();
    for (const w of workers) w.connection.disconnect();
    await redis.quit().catch(() => redis.disconnect());
    await db.$disconnect();
  };
  return {
    ...(setupResult.info ?? ({} as Info)),
    port: internal.port,
    internalUrl: internal.url,
    relay,
    stop: () => (stopping ??= stop()),
  };
}
