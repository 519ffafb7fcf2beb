/**
 * What a signed-in web app (the back-office, the merchant portal) opens before its routes and closes
 * after them: the database with its production checks, Redis for its own keys, the queues' connection
 * with the outbox publisher, metrics, the sessions' node-redis client and store, the login throttle;
 * then its two listeners, the app and /health, /ready, /metrics. One place, so that a fix to how one app
 * starts or stops is a fix to both.
 */
import type { Server } from 'node:http';
import { RedisStore } from 'connect-redis';
import type { Express } from 'express';
import { databaseOptions, type CommonEnv, type NodeEnvEnv, type WebAppEnv } from '@mm/config';
import { configurationErrorsOf, SecretBox, type Db } from '@mm/db';
import { createServiceDb } from '@mm/db/service-db';
import {
  assertRedisNoEviction,
  createMetricsRegistry,
  dbConfigurationErrorsCounter,
  listen,
  startInternalServer,
  type Logger,
} from '@mm/observability';
import type { Registry } from 'prom-client';
import {
  AfterCommit,
  createOutboxPublisher,
  createRedisConnection,
  redisTargetOf,
  type OutboxPublisher,
  type OutboxQueueDefinition,
  type RedisClient,
} from '@mm/queues';
import { LoginThrottle, type LoginLimits } from './login-throttle.js';
import { sessionKeyPrefix } from './session.js';
import { sessionRedisOf, type SessionRedis } from './session-redis.js';

export type WebAppBaseEnv = CommonEnv & NodeEnvEnv & WebAppEnv & { MASTER_KEY: string };

export interface WebAppBaseOptions {
  /** The metrics' prefix (`backoffice`, `merchant_portal`). */
  metricsName: string;
  /** The sessions' and the login throttle's own keys (`bo`, `mp`): the two apps never share a session. */
  sessionApp: string;
  /** The outbox topics this app's changes publish at once after commit (the relays publish them anyway). */
  outboxQueues: OutboxQueueDefinition[];
  /** How the throttle spells an email (staff's and merchant users' rules differ). */
  normalizeEmail: (email: string) => string;
  logger: Logger;
}

export interface WebAppBase {
  box: SecretBox;
  db: Db;
  /** ioredis for the app's own keys (login throttle, one-time codes) and the eviction check. */
  redis: RedisClient;
  /** The queues' connection, for producers of the app's own. */
  queueRedis: RedisClient;
  publisher: OutboxPublisher;
  afterCommit: AfterCommit;
  metrics: Registry;
  sessionRedis: SessionRedis;
  sessionStore: RedisStore;
  throttle: LoginThrottle;
  close(): Promise<void>;
}

export async function openWebAppBase(env: WebAppBaseEnv, o: WebAppBaseOptions): Promise<WebAppBase> {
  const { logger } = o;
  if (env.NODE_ENV === 'production' && (!env.SECURE_COOKIES || !env.HSTS)) {
    // Allowed for a plain-HTTP setup on purpose (a local compose); anywhere else it is a mistake worth seeing.
    logger.warn(
      { SECURE_COOKIES: env.SECURE_COOKIES, HSTS: env.HSTS },
      'production without Secure cookies or HSTS: session cookies can travel over plain HTTP',
    );
  }
  // First, before any connection is opened: a malformed MASTER_KEY stops the start, not the first use.
  const box = new SecretBox(env.MASTER_KEY);
  // Refused in production while demo credentials work on this database, and in either mode while an
  // operator account is what the mode forbids.
  const db = await createServiceDb({
    ...databaseOptions(env),
    nodeEnv: env.NODE_ENV,
    deploymentMode: env.DEPLOYMENT_MODE,
    secretBox: box,
    onMisconfiguration: (problem, err) => logger.error({ err }, problem),
  });
  // connect-redis 8+ only speaks to node-redis, so the session store gets a node-redis client of its own.
  const redis = createRedisConnection(redisTargetOf(env), { maxRetriesPerRequest: 2 });
  redis.on('error', (err) => logger.error({ err }, 'redis connection error'));
  await assertRedisNoEviction(redis);
  const queueRedis = createRedisConnection(redisTargetOf(env));
  const outbox = createOutboxPublisher(
    o.outboxQueues,
    { connection: queueRedis, redisPrefix: env.REDIS_PREFIX },
    logger,
  );
  const metrics = createMetricsRegistry(o.metricsName);
  dbConfigurationErrorsCounter(metrics, () => configurationErrorsOf(db));
  const afterCommit = new AfterCommit(outbox.publisher, queueRedis, env.REDIS_PREFIX, metrics);
  const sessionRedis = sessionRedisOf(redisTargetOf(env));
  sessionRedis.on('error', (err: unknown) => logger.error({ err }, 'session redis connection error'));
  await sessionRedis.connect();
  return {
    box,
    db,
    redis,
    queueRedis,
    publisher: outbox.publisher,
    afterCommit,
    metrics,
    sessionRedis,
    sessionStore: new RedisStore({
      client: sessionRedis.storeClient,
      prefix: sessionKeyPrefix(env.REDIS_PREFIX, o.sessionApp),
    }),
    throttle: new LoginThrottle(redis, env.REDIS_PREFIX, loginLimitsOf(env), o.sessionApp, o.normalizeEmail),
    async close() {
      await outbox.close();
      queueRedis.disconnect();
      await sessionRedis.close();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}

/** The sign-in limits of the env, for the throttle above or another one on keys of its own. */
export function loginLimitsOf(env: WebAppEnv): LoginLimits {
  return {
    maxFailures: env.LOGIN_MAX_FAILURES,
    lockoutS: env.LOGIN_LOCKOUT_S,
    maxPerAddress: env.LOGIN_MAX_ATTEMPTS_PER_IP,
    addressWindowS: env.LOGIN_IP_WINDOW_S,
  };
}

/** The settings createXxxApp takes for its sessions and headers, as the env gives them. */
export function webAppSettings(env: WebAppEnv) {
  return {
    sessionSecret: env.SESSION_SECRET,
    sessionTtlS: env.SESSION_TTL_S,
    secureCookies: env.SECURE_COOKIES,
    hsts: env.HSTS,
    trustProxy: env.TRUST_PROXY,
  };
}

export interface ServedWebApp {
  url: string;
  port: number;
  internalUrl: string;
  /** Stops taking requests and lets those in flight finish (idle keep-alive sockets are closed), then the internal port. */
  close(): Promise<void>;
}

/** The app on its port and /health, /ready (database, Redis, sessions), /metrics on the internal one. */
export async function serveWebApp(
  app: Express,
  base: WebAppBase,
  o: { port: number; internalPort: number; logger: Logger; what: string },
): Promise<ServedWebApp> {
  const { server, port } = await listen(app, o.port);
  const internal = await startInternalServer({
    port: o.internalPort,
    metrics: base.metrics,
    logger: o.logger,
    readiness: {
      database: () => base.db.$queryRaw`SELECT 1`,
      redis: () => base.redis.ping(),
      sessions: () => base.sessionRedis.ping(),
    },
  });
  o.logger.info({ port, internalPort: internal.port }, `${o.what} listening`);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    internalUrl: internal.url,
    async close() {
      await closeServer(server);
      await internal.close();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
