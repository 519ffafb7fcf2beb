import { createDb, ReadReplica } from '@mm/db';
import { smtpMailer } from '@mm/mail';
import { databaseOptions } from '@mm/config';
import {
  cashoutRequests,
  createRedisConnection,
  QueueProducer,
  reconciliationRuns,
  redisTargetOf,
  webhookDeliveries,
} from '@mm/queues';
import { createLogger, readReplicaMetrics, type Logger } from '@mm/observability';
import { openWebAppBase, serveWebApp, webAppSettings } from '@mm/web';
import { createBackofficeApp } from './app.js';
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
  // Approvals and re-sent webhooks are outbox rows first; published at once after commit (the bridge's
  // and the dispatcher's relays publish them anyway if this process dies in between).
  const base = await openWebAppBase(env, {
    metricsName: 'backoffice',
    sessionApp: SESSION_APP,
    outboxQueues: [cashoutRequests, webhookDeliveries],
    normalizeEmail: normalizeStaffEmail,
    logger,
  });
  const { db, box, metrics, queueRedis } = base;
  const mailer = smtpMailer(env.SMTP_URL, env.MAIL_FROM);
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
    afterCommit: base.afterCommit,
    publisher: base.publisher,
    reconciliationRuns: runs,
    dashboardQueues: dashboard.queues,
    operatorCalls: new OperatorCallHealthReader({
      urls: metricsUrlsOf(env.OPERATOR_METRICS_URLS),
      timeoutMs: env.OPERATOR_METRICS_TIMEOUT_MS,
      now: overrides.now,
    }),
    logger,
    metrics,
    sessionStore: base.sessionStore,
    throttle: base.throttle,
    ...webAppSettings(env),
    now: overrides.now ?? Date.now,
  });

  const served = await serveWebApp(app, base, {
    port: env.BACKOFFICE_PORT,
    internalPort: env.BACKOFFICE_INTERNAL_PORT,
    logger,
    what: 'backoffice',
  });

  return {
    url: served.url,
    port: served.port,
    internalUrl: served.internalUrl,
    async stop() {
      await served.close();
      mailer.close();
      await dashboard.close();
      await runs.close();
      runsRedis.disconnect();
      await base.close();
      await replica?.state.close();
      await replica?.db.$disconnect();
    },
  };
}
