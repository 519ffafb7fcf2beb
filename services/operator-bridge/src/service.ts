import express from 'express';
import { createServiceDb, findOverdueOutbox } from '@mm/db';
import { assertRedisNoEviction, Counter, createLogger, createMetricsRegistry, httpMetrics, listen, liveness, startInternalServer, type Logger } from '@mm/observability';
import { instrumentAdapter, operatorAdapterFromEnv, type OperatorAdapter } from '@mm/operators';
import {
  AfterCommit, cashoutRequests, createOutboxPublisher, createRedisConnection, createWorker, expiryChecks, operatorRequests,
  operatorResults, QueueProducer, rememberOnce, startOutboxRelay, webhookDeliveries, type ProducerOptions,
} from '@mm/queues';
import { parseSecondsList } from '@mm/config';
import { parkFailingJobs } from '@mm/worker-runtime';
import type { BridgeEnv } from './env.js';
import { applyOperatorResultProcessor } from './processors/apply-operator-result.js';
import { executeCashoutProcessor } from './processors/execute-cashout.js';
import { pushUssdProcessor } from './processors/push-ussd.js';
import { operatorCallbackRouter, type CallbackReplays } from './routes/operator-callback.js';

/**
 * How long a callback delivery is remembered: past twice the operator's signature tolerance (300 s),
 * a captured callback is refused as stale before it could be taken for new.
 */
const CALLBACK_REPLAY_WINDOW_S = 600;

export interface BridgeOverrides {
  logger?: Logger;
  adapter?: OperatorAdapter;
  jobOptions?: ProducerOptions['jobOptions'];
  now?: () => number;
}

export interface RunningBridge {
  url: string;
  port: number;
  /** /health, /ready and /metrics (OPERATOR_BRIDGE_INTERNAL_PORT). */
  internalUrl: string;
  stop(): Promise<void>;
}

export async function startOperatorBridge(env: BridgeEnv, overrides: BridgeOverrides = {}): Promise<RunningBridge> {
  const logger = overrides.logger ?? createLogger('operator-bridge', env.LOG_LEVEL);
  const now = overrides.now ?? Date.now;
  // First: refused in production while demo credentials work on this database (@mm/db demo-data.ts).
  const db = await createServiceDb({ databaseUrl: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, nodeEnv: env.NODE_ENV });
  const redis = createRedisConnection(env.REDIS_URL);
  await assertRedisNoEviction(redis);
  const metrics = createMetricsRegistry('operator-bridge');
  const adapter = instrumentAdapter(overrides.adapter ?? operatorAdapterFromEnv(env), metrics);

  const queueOptions = { connection: redis, redisPrefix: env.REDIS_PREFIX, jobOptions: overrides.jobOptions };
  const outbox = createOutboxPublisher(
    [operatorRequests, cashoutRequests, expiryChecks, webhookDeliveries],
    queueOptions,
    logger,
  );
  const afterCommit = new AfterCommit(outbox.publisher, redis, env.REDIS_PREFIX, metrics);
  const results = new QueueProducer(operatorResults, queueOptions);
  // This service consumes operator requests: it re-publishes those committed but never queued.
  const relay = startOutboxRelay({
    publisher: outbox.publisher,
    topics: [operatorRequests.name, cashoutRequests.name],
    findOverdue: (topics, before) => findOverdueOutbox(db, topics, before),
    graceMs: env.OUTBOX_GRACE_MS,
    intervalMs: env.OUTBOX_RELAY_INTERVAL_MS,
    onError: (err) => logger.warn({ err }, 'outbox relay pass failed'),
    onFailedRun: parkFailingJobs({ db, logger, metrics, maxRuns: env.OUTBOX_MAX_FAILED_RUNS }),
  });

  const workerOptions = { connection: createRedisConnection(env.REDIS_URL), redisPrefix: env.REDIS_PREFIX, concurrency: env.BRIDGE_CONCURRENCY, lockMs: env.WORKER_LOCK_MS, logger, metrics };
  const pushWorker = createWorker(operatorRequests, workerOptions, pushUssdProcessor({
    db, adapter, afterCommit, now,
    callbackUrl: `${env.OPERATOR_CALLBACK_BASE_URL.replace(/\/$/, '')}/operator/callbacks/${adapter.name}`,
    confirmationTimeoutMs: Math.round(env.CASHIN_CONFIRMATION_TIMEOUT_S * 1000),
    statusPollsMs: env.CASHIN_STATUS_POLL_S ? parseSecondsList(env.CASHIN_STATUS_POLL_S) : [],
  }));
  const capturedButFailed = new Counter({
    name: 'mm_operator_ok_for_failed_cashin_total',
    help: 'Operator confirmations (money taken) of cash-ins that are FAILED here: each one must be reconciled by hand.',
    registers: [metrics],
  });
  const resultConnection = createRedisConnection(env.REDIS_URL);
  const resultWorker = createWorker(operatorResults, { ...workerOptions, connection: resultConnection },
    applyOperatorResultProcessor({ db, afterCommit, logger, adapter, onCapturedButFailed: () => capturedButFailed.inc() }));

  const cashoutConnection = createRedisConnection(env.REDIS_URL);
  const cashoutWorker = createWorker(cashoutRequests, { ...workerOptions, connection: cashoutConnection }, executeCashoutProcessor({ db, adapter, afterCommit, metrics }));

  // Ready before start() returns: a stop() racing the workers' connection would leave BullMQ timers behind.
  await Promise.all([pushWorker.waitUntilReady(), resultWorker.waitUntilReady(), cashoutWorker.waitUntilReady()]);

  const app = express();
  app.disable('x-powered-by');
  app.use(httpMetrics(metrics));
  // The operator reaches this port: liveness and its callbacks only, /ready and /metrics are internal.
  app.get('/health', liveness);
  const replayKey = (key: string) => `${env.REDIS_PREFIX}:operator-callback:${adapter.name}:${key}`;
  const replays: CallbackReplays = {
    firstDelivery: (key) => rememberOnce(redis, replayKey(key), CALLBACK_REPLAY_WINDOW_S),
    forget: async (key) => { await redis.del(replayKey(key)); },
  };
  const callbacks = new Counter({ name: 'mm_operator_callbacks_total', help: 'Operator callbacks received, by outcome: queued, replayed (the same signed delivery again: dropped), invalid (401).', labelNames: ['outcome'], registers: [metrics] });
  app.use(operatorCallbackRouter({ adapter, results, replays, callbacks, now }));
  const { server, port } = await listen(app, env.OPERATOR_BRIDGE_PORT);
  const internal = await startInternalServer({
    port: env.OPERATOR_BRIDGE_INTERNAL_PORT, metrics, logger, readiness: { database: () => db.$queryRaw`SELECT 1`, redis: () => redis.ping() },
  });
  logger.info({ port, internalPort: internal.port }, 'operator bridge listening');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    internalUrl: internal.url,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await internal.close();
      await relay.stop();
      // close() waits for the jobs in flight.
      await Promise.all([pushWorker.close(), resultWorker.close(), cashoutWorker.close()]);
      await Promise.all([outbox.close(), results.close()]);
      workerOptions.connection.disconnect();
      resultConnection.disconnect();
      cashoutConnection.disconnect();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}
