import { smtpMailer } from '@mm/merchant-portal';
import { RedisStore } from 'connect-redis';
import { configurationErrorsOf, createDb, ReadReplica, SecretBox } from '@mm/db';
import { createServiceDb } from '@mm/db/service-db';
import { databaseOptions } from '@mm/config';
import {
  AfterCommit,
  cashoutRequests,
  createOutboxPublisher,
  createRedisConnection,
  QueueProducer,
  reconciliationRuns,
  redisTargetOf,
  webhookDeliveries,
} from '@mm/queues';
import {
  assertRedisNoEviction,
  createLogger,
  createMetricsRegistry,
  dbConfigurationErrorsCounter,
  listen,
  readReplicaMetrics,
  startInternalServer,
  type Logger,
} from '@mm/observability';
import { createBackofficeApp } from './app.js';
import { LoginThrottle, sessionKeyPrefix, sessionRedisOf } from '@mm/web';
import { normalizeStaffEmail } from '@mm/db/staff';
import { SESSION_APP } from './http/session.js';
import { openDashboardQueues } from './dashboard-queues.js';
import { metricsUrlsOf, OperatorCallHealthReader } from './operator-health.js';
import type { BackofficeEnv } from './env.js';

/** A reconciliation-runs job not added within this is refused (the request says so; nothing is audited). */
const RECONCILIATION_QUEUE_TIMEOUT_MS = 3000;

export interface BackofficeOverrides {
  logger?: Logger;
  now?: () => number;
}

export interface RunningBackoffice {
  url: string;
  port: number;
  /** /health, /ready and /metrics (BACKOFFICE_INTERNAL_PORT). */
  internalUrl: string;
  stop(): Promise<void>;
}

export async function startBackoffice(
  env: BackofficeEnv,
  overrides: BackofficeOverrides = {},
): Promise<RunningBackoffice> {
  const logger = overrides.logger ?? createLogger('backoffice', env.LOG_LEVEL);
  if (env.NODE_ENV === 'production' && (!env.SECURE_COOKIES || !env.HSTS)) {
    // Allowed for a plain-HTTP setup on purpose (a local compose); anywhere else it is a mistake worth seeing.
    logger.warn(
      { SECURE_COOKIES: env.SECURE_COOKIES, HSTS: env.HSTS },
      'production without Secure cookies or HSTS: session cookies can travel over plain HTTP',
    );
  }
  // First, before any connection is opened: a malformed MASTER_KEY stops the start, not the first key creation.
  const box = new SecretBox(env.MASTER_KEY);
  const mailer = smtpMailer(env.SMTP_URL, env.MAIL_FROM);
  // Refused in production while demo credentials (demo staff, demo key) work on this database, and in
  // either mode while an operator account is what the mode forbids.
  const db = await createServiceDb({
    ...databaseOptions(env),
    nodeEnv: env.NODE_ENV,
    deploymentMode: env.DEPLOYMENT_MODE,
    secretBox: box,
    onMisconfiguration: (problem, err) => logger.error({ err }, problem),
  });
  // ioredis for our own keys (login throttle) and the eviction check, like every service; connect-redis
  // 8+ only speaks to node-redis, so the session store gets a node-redis client of its own.
  const redis = createRedisConnection(redisTargetOf(env), { maxRetriesPerRequest: 2 });
  redis.on('error', (err) => logger.error({ err }, 'redis connection error'));
  await assertRedisNoEviction(redis);
  // Approvals and re-sent webhooks are outbox rows first; published at once after commit (the bridge's
  // and the dispatcher's relays publish them anyway if this process dies in between).
  const queueRedis = createRedisConnection(redisTargetOf(env));
  const outbox = createOutboxPublisher(
    [cashoutRequests, webhookDeliveries],
    { connection: queueRedis, redisPrefix: env.REDIS_PREFIX },
    logger,
  );
  const metrics = createMetricsRegistry('backoffice');
  dbConfigurationErrorsCounter(metrics, () => configurationErrorsOf(db));
  const afterCommit = new AfterCommit(outbox.publisher, queueRedis, env.REDIS_PREFIX, metrics);
  // Reconciliation runs (a re-query, an imported statement's days) are added directly, in the request:
  // their own connection with a command timeout, so a Redis that does not answer fails the request in
  // bounded time (nothing queued, nothing audited) instead of holding it and its database transaction.
  const runsRedis = createRedisConnection(redisTargetOf(env), { commandTimeoutMs: RECONCILIATION_QUEUE_TIMEOUT_MS });
  runsRedis.on('error', (err) => logger.error({ err }, 'reconciliation queue redis connection error'));
  const runs = new QueueProducer(reconciliationRuns, { connection: runsRedis, redisPrefix: env.REDIS_PREFIX });
  const dashboard = openDashboardQueues(queueRedis, env.REDIS_PREFIX);
  // Ready before start returns: a stop() racing their initialisation closed the shared connection under
  // them, and each emitted an unhandled "Connection is closed".
  await Promise.all([...dashboard.queues, runs.queue].map((q) => q.waitUntilReady()));
  const sessionRedis = sessionRedisOf(redisTargetOf(env));
  sessionRedis.on('error', (err: unknown) => logger.error({ err }, 'session redis connection error'));
  await sessionRedis.connect();

  // Searches read the replica (DATABASE_REPLICA_URL) while it answers within REPLICA_MAX_LAG_S, the primary otherwise.
  const replicaState = await ReadReplica.fromSettings(env, (err, what) =>
    logger.warn({ err, what }, 'read replica failed: searches read the primary until it is back'),
  );
  const replica = replicaState && {
    state: replicaState,
    db: createDb({
      ...databaseOptions(env),
      databaseUrl: env.DATABASE_REPLICA_URL!,
      pooling: 'direct',
      poolSize: Math.min(env.DB_POOL_SIZE, 5),
    }),
  };
  if (replica) readReplicaMetrics(metrics, replica.state);

  const app = createBackofficeApp({
    db,
    ...(replica
      ? {
          searches: (work) =>
            replica.state.read(
              () => work(replica.db),
              () => work(db),
            ),
        }
      : {}),
    box,
    mailer,
    portalUrl: env.PORTAL_PUBLIC_URL,
    deploymentMode: env.DEPLOYMENT_MODE,
    afterCommit,
    publisher: outbox.publisher,
    reconciliationRuns: runs,
    dashboardQueues: dashboard.queues,
    operatorCalls: new OperatorCallHealthReader({
      urls: metricsUrlsOf(env.OPERATOR_METRICS_URLS),
      timeoutMs: env.OPERATOR_METRICS_TIMEOUT_MS,
      now: overrides.now,
    }),
    logger,
    metrics,
    sessionStore: new RedisStore({
      client: sessionRedis.storeClient,
      prefix: sessionKeyPrefix(env.REDIS_PREFIX, SESSION_APP),
    }),
    throttle: new LoginThrottle(
      redis,
      env.REDIS_PREFIX,
      {
        maxFailures: env.LOGIN_MAX_FAILURES,
        lockoutS: env.LOGIN_LOCKOUT_S,
        maxPerAddress: env.LOGIN_MAX_ATTEMPTS_PER_IP,
        addressWindowS: env.LOGIN_IP_WINDOW_S,
      },
      SESSION_APP,
      normalizeStaffEmail,
    ),
    sessionSecret: env.SESSION_SECRET,
    sessionTtlS: env.SESSION_TTL_S,
    secureCookies: env.SECURE_COOKIES,
    hsts: env.HSTS,
    trustProxy: env.TRUST_PROXY,
    now: overrides.now ?? Date.now,
  });

  const { server, port } = await listen(app, env.BACKOFFICE_PORT);
  const internal = await startInternalServer({
    port: env.BACKOFFICE_INTERNAL_PORT,
    metrics,
    logger,
    readiness: {
      database: () => db.$queryRaw`SELECT 1`,
      redis: () => redis.ping(),
      sessions: () => sessionRedis.ping(),
    },
  });
  logger.info({ port, internalPort: internal.port }, 'backoffice listening');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    internalUrl: internal.url,
    async stop() {
      // Stop taking requests, let in-flight ones finish (idle keep-alive sockets are closed), then close connections.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await internal.close();
      await outbox.close();
      mailer.close();
      await dashboard.close();
      await runs.close();
      runsRedis.disconnect();
      queueRedis.disconnect();
      await sessionRedis.close();
      redis.disconnect();
      await db.$disconnect();
      await replica?.state.close();
      await replica?.db.$disconnect();
    },
  };
}
