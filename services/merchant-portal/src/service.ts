import { RedisStore } from 'connect-redis';
import { configurationErrorsOf, SecretBox } from '@mm/db';
import { createServiceDb } from '@mm/db/service-db';
import { createExportPool } from '@mm/db/payments';
import { normalizeMerchantUserEmail } from '@mm/db/merchant-users';
import { cashoutRulesOf, databaseOptions } from '@mm/config';
import {
  AfterCommit,
  cashoutRequests,
  createOutboxPublisher,
  createRedisConnection,
  redisTargetOf,
  refundRequests,
  webhookDeliveries,
} from '@mm/queues';
import {
  assertRedisNoEviction,
  createLogger,
  createMetricsRegistry,
  dbConfigurationErrorsCounter,
  listen,
  startInternalServer,
  type Logger,
} from '@mm/observability';
import { LoginThrottle, sessionKeyPrefix, sessionRedisOf } from '@mm/web';
import { createPortalApp } from './app.js';
import { smtpMailer } from '@mm/mail';
import { SESSION_APP } from './auth/session.js';
import type { MerchantPortalEnv } from './env.js';

export interface PortalOverrides {
  logger?: Logger;
  now?: () => number;
}

export interface RunningPortal {
  url: string;
  port: number;
  /** /health, /ready and /metrics (MERCHANT_PORTAL_INTERNAL_PORT). */
  internalUrl: string;
  stop(): Promise<void>;
}

export async function startMerchantPortal(
  env: MerchantPortalEnv,
  overrides: PortalOverrides = {},
): Promise<RunningPortal> {
  const logger = overrides.logger ?? createLogger('merchant-portal', env.LOG_LEVEL);
  if (env.NODE_ENV === 'production' && (!env.SECURE_COOKIES || !env.HSTS)) {
    logger.warn(
      { SECURE_COOKIES: env.SECURE_COOKIES, HSTS: env.HSTS },
      'production without Secure cookies or HSTS: session cookies can travel over plain HTTP',
    );
  }
  // First, before any connection is opened: a malformed MASTER_KEY stops the start, not the first sign-in.
  const box = new SecretBox(env.MASTER_KEY);
  // Refused in production while demo credentials work on this database (the demo owner among them).
  const db = await createServiceDb({
    ...databaseOptions(env),
    nodeEnv: env.NODE_ENV,
    deploymentMode: env.DEPLOYMENT_MODE,
    secretBox: box,
    onMisconfiguration: (problem, err) => logger.error({ err }, problem),
  });
  const redis = createRedisConnection(redisTargetOf(env), { maxRetriesPerRequest: 2 });
  redis.on('error', (err) => logger.error({ err }, 'redis connection error'));
  await assertRedisNoEviction(redis);
  // A refund, a cash-out or a re-sent webhook is an outbox row first, published at once after commit
  // (the relays publish it anyway if this process dies in between), exactly as from the API.
  const queueRedis = createRedisConnection(redisTargetOf(env));
  const outbox = createOutboxPublisher(
    [refundRequests, cashoutRequests, webhookDeliveries],
    { connection: queueRedis, redisPrefix: env.REDIS_PREFIX },
    logger,
  );
  const metrics = createMetricsRegistry('merchant_portal');
  dbConfigurationErrorsCounter(metrics, () => configurationErrorsOf(db));
  const afterCommit = new AfterCommit(outbox.publisher, queueRedis, env.REDIS_PREFIX, metrics);
  // The statements download reads through a cursor on a pool of its own, as the API's export does (decisions 8).
  const exportPool = createExportPool({
    databaseUrl: env.DATABASE_URL,
    max: 2,
    onError: (err) => logger.error({ err }, 'export pool connection error'),
  });
  const sessionRedis = sessionRedisOf(redisTargetOf(env));
  sessionRedis.on('error', (err: unknown) => logger.error({ err }, 'session redis connection error'));
  await sessionRedis.connect();

  const mailer = smtpMailer(env.SMTP_URL, env.MAIL_FROM);
  const loginLimits = {
    maxFailures: env.LOGIN_MAX_FAILURES,
    lockoutS: env.LOGIN_LOCKOUT_S,
    maxPerAddress: env.LOGIN_MAX_ATTEMPTS_PER_IP,
    addressWindowS: env.LOGIN_IP_WINDOW_S,
  };
  const app = createPortalApp({
    db,
    mailer,
    publicUrl: env.PORTAL_PUBLIC_URL,
    box,
    redis,
    redisPrefix: env.REDIS_PREFIX,
    deploymentMode: env.DEPLOYMENT_MODE,
    cashoutRules: cashoutRulesOf(env),
    afterCommit,
    publisher: outbox.publisher,
    exportPool,
    logger,
    metrics,
    sessionStore: new RedisStore({
      client: sessionRedis.storeClient,
      prefix: sessionKeyPrefix(env.REDIS_PREFIX, SESSION_APP),
    }),
    throttle: new LoginThrottle(redis, env.REDIS_PREFIX, loginLimits, SESSION_APP, normalizeMerchantUserEmail),
    // The same limits on keys of their own: asking for reset links never locks the account's sign-in.
    resetThrottle: new LoginThrottle(
      redis,
      env.REDIS_PREFIX,
      loginLimits,
      `${SESSION_APP}-reset`,
      normalizeMerchantUserEmail,
    ),
    sessionSecret: env.SESSION_SECRET,
    sessionTtlS: env.SESSION_TTL_S,
    secureCookies: env.SECURE_COOKIES,
    hsts: env.HSTS,
    trustProxy: env.TRUST_PROXY,
    now: overrides.now ?? Date.now,
  });

  const { server, port } = await listen(app, env.MERCHANT_PORTAL_PORT);
  const internal = await startInternalServer({
    port: env.MERCHANT_PORTAL_INTERNAL_PORT,
    metrics,
    logger,
    readiness: {
      database: () => db.$queryRaw`SELECT 1`,
      redis: () => redis.ping(),
      sessions: () => sessionRedis.ping(),
    },
  });
  logger.info({ port, internalPort: internal.port }, 'merchant portal listening');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    internalUrl: internal.url,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await internal.close();
      await outbox.close();
      mailer.close();
      queueRedis.disconnect();
      await sessionRedis.close();
      redis.disconnect();
      await exportPool.end();
      await db.$disconnect();
    },
  };
}
