import { databaseOptions, directDatabaseUrl } from '@mm/config';
import { configurationErrorsOf, ReadReplica, listenForReferenceChanges, ReferenceCache, SecretBox } from '@mm/db';
import { createServiceDb } from '@mm/db/service-db';
import { findActiveSubsidiary, lookupApiKey } from '@mm/db/merchants';
import { routableAccounts } from '@mm/collections';
import { operatorsByNameOnly, routeOperator, type RoutableAccount } from '@mm/domain';
import { createExportPool, exportConnections } from '@mm/db/payments';
import {
  assertRedisNoEviction,
  createLogger,
  createMetricsRegistry,
  dbConfigurationErrorsCounter,
  listen,
  readReplicaMetrics,
  referenceChangesGauge,
  startInternalServer,
  type Logger,
} from '@mm/observability';
import {
  AfterCommit,
  cashoutRequests,
  createOutboxPublisher,
  createRedisConnection,
  customerCodes,
  operatorRequests,
  QueueProducer,
  redisTargetOf,
  refundRequests,
  TransactionUpdateWaiter,
  type ProducerOptions,
} from '@mm/queues';
import { LinkSubmitLimit } from './payment-links/link-submit-limit.js';
import { createGatewayApp } from './app.js';
import { DatabaseOutage } from './database-outage.js';
import type { GatewayEnv } from './env.js';
import { ReplayGuard } from './http/replay-guard.js';
import { rateLimit } from './http/rate-limit.js';
import { AuthFailureLimit } from './http/auth-failure-limit.js';
import { killAfterCommitHooks } from './faults/fault-hooks.js';
import { createKeyLookup } from './key-lookup.js';
import { redisCodeIntake } from './payment-page/code-intake.js';

export interface GatewayOverrides {
  logger?: Logger;
  now?: () => number;
  /** Lets tests shorten the retry policy of the jobs this service produces. */
  jobOptions?: ProducerOptions['jobOptions'];
}

export interface RunningGateway {
  url: string;
  port: number;
  /** /health, /ready and /metrics (GATEWAY_INTERNAL_PORT). */
  internalUrl: string;
  stop(): Promise<void>;
}

export async function startGateway(env: GatewayEnv, overrides: GatewayOverrides = {}): Promise<RunningGateway> {
  const logger = overrides.logger ?? createLogger('gateway', env.LOG_LEVEL);
  // First: refused in production while demo credentials work on this database (@mm/db demo-data.ts).
  // PostgreSQL going away is seen by whichever comes first: a pooled connection it ends (idle, or between
  // two statements), the LISTEN connection below, or a request's query (the error handler).
  const databaseOutage = new DatabaseOutage();
  const box = new SecretBox(env.MASTER_KEY);
  const db = await createServiceDb({
    ...databaseOptions(env),
    nodeEnv: env.NODE_ENV,
    deploymentMode: env.DEPLOYMENT_MODE,
    secretBox: box,
    onConnectionError: (err) => databaseOutage.seen(err),
    onMisconfiguration: (problem, err) => logger.error({ err }, problem),
  });
  const exportPool = createExportPool({
    databaseUrl: env.DATABASE_URL,
    connectionTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    onError: (err) => logger.warn({ err }, 'export pool: idle connection failed'),
  });
  // Exports read the replica (DATABASE_REPLICA_URL) while it answers within REPLICA_MAX_LAG_S, the primary otherwise.
  const replicaState = await ReadReplica.fromSettings(env, (err, what) =>
    logger.warn({ err, what }, 'read replica failed: exports read the primary until it is back'),
  );
  const replica = replicaState && {
    state: replicaState,
    pool: createExportPool({
      databaseUrl: env.DATABASE_REPLICA_URL!,
      connectionTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
      onError: (err) => logger.warn({ err }, 'replica export pool: idle connection failed'),
    }),
  };
  // Bounded: while Redis is away a request is answered (503, or let through by the limiter) in bounded
  // time instead of waiting in ioredis's queue. The subscriber is not: it waits for announcements.
  const redis = createRedisConnection(redisTargetOf(env), { commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS });
  await assertRedisNoEviction(redis);
  const subscriber = createRedisConnection(redisTargetOf(env));
  // ioredis reconnects by itself; without a listener it prints "Unhandled error event" to stderr instead of a log line.
  for (const connection of [redis, subscriber])
    connection.on('error', (err) => logger.error({ err }, 'redis connection error'));
  const metrics = createMetricsRegistry('gateway');
  dbConfigurationErrorsCounter(metrics, () => configurationErrorsOf(db));
  if (replica) readReplicaMetrics(metrics, replica.state);
  const now = overrides.now ?? Date.now;

  // Every API request reads its key and every cash-in its country: from memory, dropped on any change
  // PostgreSQL notifies (revocation, rotation, merchant disabled, subsidiary (de)activated).
  const referenceChanges = await listenForReferenceChanges({
    databaseUrl: directDatabaseUrl(env),
    onError: (err) => {
      databaseOutage.seen(err);
      logger.warn(
        { err },
        'reference changes: LISTEN connection failed; keys and subsidiaries are read from the database until it is back',
      );
    },
  });
  const ttlMs = env.REFERENCE_CACHE_TTL_S * 1000;
  const findKey = createKeyLookup({
    feed: referenceChanges,
    ttlMs,
    now,
    load: (apiKey) => lookupApiKey(db, box, apiKey),
  });
  const countries = new ReferenceCache({
    feed: referenceChanges,
    ttlMs,
    max: 1_000,
    load: async (code) => (await findActiveSubsidiary(db, code)) !== null,
  });
  // Routing reads the subsidiary's operator accounts on every cash-in; an admin's change (disabled,
  // marked down, prefixes) is notified like the rest and applies to the next request.
  const accounts = new ReferenceCache<RoutableAccount[]>({
    feed: referenceChanges,
    ttlMs,
    max: 1_000,
    load: (code) => routableAccounts(db, code),
  });
  referenceChangesGauge(metrics, referenceChanges);

  // Jobs lost between commit and publish are re-published by the relay of their consumer (operator
  // bridge, refund worker).
  const producers = createOutboxPublisher(
    [operatorRequests, refundRequests, cashoutRequests],
    { connection: redis, redisPrefix: env.REDIS_PREFIX, jobOptions: overrides.jobOptions },
    logger,
  );
  const afterCommit = new AfterCommit(producers.publisher, redis, env.REDIS_PREFIX, metrics);
  const waiter = await TransactionUpdateWaiter.start(subscriber, env.REDIS_PREFIX);
  // Not through the outbox: a one-time code is never written to PostgreSQL (queues' customer-codes).
  const codeQueue = new QueueProducer(customerCodes, {
    connection: redis,
    redisPrefix: env.REDIS_PREFIX,
    jobOptions: overrides.jobOptions,
  });

  const app = createGatewayApp({
    db,
    exportPool: exportConnections(exportPool, replica),
    logger,
    metrics,
    findKey,
    isActiveCountry: (code) => countries.get(code),
    operators: {
      route: async (countryCode, e164, requested) =>
        routeOperator(await accounts.get(countryCode), e164, requested, env.DEPLOYMENT_MODE),
      unavailableRetryAfterS: env.OPERATOR_UNAVAILABLE_RETRY_AFTER_S,
      byNameOnly: async (countryCode) => operatorsByNameOnly(await accounts.get(countryCode), env.DEPLOYMENT_MODE),
    },
    linkSubmitLimit: new LinkSubmitLimit({
      redis,
      redisPrefix: env.REDIS_PREFIX,
      perLinkPerMin: env.LINK_SUBMIT_PER_LINK_PER_MIN,
      perAddressPerMin: env.LINK_SUBMIT_PER_ADDRESS_PER_MIN,
    }),
    replayGuard: new ReplayGuard(redis, env.REDIS_PREFIX, env.AUTH_TOLERANCE_S),
    authFailures: new AuthFailureLimit({
      redis,
      redisPrefix: env.REDIS_PREFIX,
      limit: env.AUTH_FAILURE_LIMIT,
      windowS: env.AUTH_FAILURE_WINDOW_S,
      logger,
    }),
    rateLimit: rateLimit({
      redis,
      redisPrefix: env.REDIS_PREFIX,
      perSecond: env.RATE_LIMIT_PER_S,
      burst: env.RATE_LIMIT_BURST,
      logger,
    }),
    trustProxyHops: env.TRUST_PROXY,
    afterCommit,
    codes: redisCodeIntake({ redis, redisPrefix: env.REDIS_PREFIX, queue: codeQueue }),
    waiter,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    toleranceS: env.AUTH_TOLERANCE_S,
    ackWaitMs: env.CASHIN_ACK_WAIT_MS,
    limits: { min: env.AMOUNT_MIN, max: env.AMOUNT_MAX },
    disbursementEnabled: env.DISBURSEMENT_ENABLED,
    cashoutApprovalRule: {
      threshold: env.CASHOUT_APPROVAL_THRESHOLD,
      merchantDailyTotal: env.CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL,
      beneficiaryDailyTotal: env.CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL,
    },
    now,
    faults: killAfterCommitHooks(env.CHAOS_KILL_AFTER_COMMIT_PREFIX),
    databaseOutage,
    unavailableRetryAfterS: env.SERVICE_UNAVAILABLE_RETRY_AFTER_S,
  });

  const { server, port } = await listen(app, env.GATEWAY_PORT);
  const internal = await startInternalServer({
    port: env.GATEWAY_INTERNAL_PORT,
    metrics,
    logger,
    readiness: { database: () => db.$queryRaw`SELECT 1`, redis: () => redis.ping() },
  });
  logger.info({ port, internalPort: internal.port }, 'gateway listening');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    internalUrl: internal.url,
    async stop() {
      // Stop taking requests, let in-flight ones finish, then close connections.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await internal.close();
      await waiter.close();
      await referenceChanges.close();
      await producers.close();
      await codeQueue.close();
      redis.disconnect();
      await db.$disconnect();
      await exportPool.end();
      await replica?.state.close();
      await replica?.pool.end();
    },
  };
}
