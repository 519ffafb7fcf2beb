import { randomBytes } from 'node:crypto';
import { createDb, type Db, SecretBox } from '@mm/db';
import { createApiKey, createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createLogger, type Logger } from '@mm/observability';
import type { CommonEnv } from '@mm/config';
import {
  createTestDatabase,
  createTestRedis,
  distinctFreePorts,
  PgBouncer,
  type TestDatabase,
  type TestRedis,
  sandboxFetch,
  signedClient,
} from '@mm/testing';
import { parseEnv as gatewayEnv, startGateway, type RunningGateway } from '@mm/gateway';
import { parseEnv as bridgeEnv, startOperatorBridge } from '@mm/operator-bridge';
import { parseEnv as expiryEnv, startExpiryWorker } from '@mm/expiry-worker';
import { parseEnv as refundEnv, startRefundWorker } from '@mm/refund-worker';
import { parseEnv as dispatcherEnv, startWebhookDispatcher } from '@mm/webhook-dispatcher';
import { startSimulator, type RunningSimulator } from '@mm/operator-simulator';
import { startWebhookReceiver } from './webhook-receiver.js';

export interface SystemOptions {
  outcomeDelayMs?: number;
  lateConfirmDelayMs?: number;
  confirmationTimeoutS?: number;
  operatorTimeoutMs?: number;
  /** OPERATOR_BREAKER_THRESHOLD (0, off, by default). */
  operatorBreakerThreshold?: number;
  hangMs?: number;
  ackWaitMs?: number;
  webhookScheduleS?: string;
  relayIntervalMs?: number;
  relayGraceMs?: number;
  /** Extra operator-bridge environment, e.g. CASHIN_STATUS_POLL_S. */
  bridgeEnv?: Record<string, string>;
  /** Extra gateway environment, e.g. RATE_LIMIT_PER_S. */
  gatewayEnv?: Record<string, string>;
  /** Extra webhook-dispatcher environment, e.g. WEBHOOK_ALLOW_PRIVATE_NETWORKS=false. */
  dispatcherEnv?: Record<string, string>;
  /** Start without the operator bridge (outbox tests start it later). */
  withoutBridge?: boolean;
  /** The suite's database on another PostgreSQL server than the machine's (a private cluster with a standby): its admin URL. */
  databaseAdminUrl?: string;
  /** Another Redis than the machine's (a Redis Cluster's view, PrivateRedisCluster.testRedis()), with the settings it needs. */
  redis?: TestRedis & { env?: Record<string, string> };
  /**
   * Every service behind a PgBouncer in transaction pooling mode of the suite's own, told so only by
   * Prisma's `?pgbouncer=true` on DATABASE_URL (`flagged`: DATABASE_DIRECT_URL set, no DB_POOLING), or
   * not told at all (`untold`: DB_POOLING=direct by default, a misconfiguration). Unset: as
   * E2E_DATABASE_POOLER says.
   */
  pgbouncerUrl?: 'flagged' | 'untold';
  /** The services' logger: silent (or E2E_LOG_LEVEL) by default. */
  logger?: Logger;
  /** OPERATOR_RECORDS_DIR of the simulator: its records kept there across restartSimulator() (in memory by default). */
  operatorRecordsDir?: string;
}

/**
 * E2E_DATABASE_POOLER=pgbouncer (`pnpm test:engines`): every service reaches PostgreSQL through a real
 * PgBouncer in transaction pooling mode, with DB_POOLING=transaction and DATABASE_DIRECT_URL (LISTEN) as
 * a deployment behind one sets them; the suite's own client stays direct.
 */
const THROUGH_PGBOUNCER = process.env.E2E_DATABASE_POOLER === 'pgbouncer';

/**
 * A service's parsed settings pointed at the pooler: an entry carrying its own timeouts. One its suite
 * gave another DATABASE_URL (a relay it cuts) keeps it: that suite breaks the path to PostgreSQL itself.
 */
async function throughPooler<E extends CommonEnv>(
  bouncer: PgBouncer | null,
  database: TestDatabase,
  env: E,
): Promise<E> {
  if (!bouncer || env.DATABASE_URL !== database.url) return env;
  const url = await bouncer.url({
    dbname: database.name,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: env.DB_LOCK_TIMEOUT_MS,
  });
  return { ...env, DATABASE_URL: url, DATABASE_DIRECT_URL: env.DATABASE_URL, DB_POOLING: 'transaction' };
}

/**
 * The whole system for one test suite: its own database and Redis prefix, the real operator simulator
 * over HTTP, every service in-process, a merchant with a key and a webhook receiver.
 */
export async function startSystem(o: SystemOptions = {}) {
  const database: TestDatabase = await createTestDatabase(o.databaseAdminUrl ? { adminUrl: o.databaseAdminUrl } : {});
  const server = new URL(database.url);
  const bouncer =
    THROUGH_PGBOUNCER || o.pgbouncerUrl
      ? await PgBouncer.start({ upstream: { host: server.hostname, port: Number(server.port || 5432) } })
      : null;
  /** A service's settings parsed, then pointed at the pooler as the suite asks. */
  const configured = async <E extends CommonEnv>(
    parse: (source: NodeJS.ProcessEnv) => E,
    settings: NodeJS.ProcessEnv,
  ): Promise<E> => {
    const env = parse(settings);
    if (!o.pgbouncerUrl) return throughPooler(bouncer, database, env);
    const entry = await bouncer!.url({
      dbname: database.name,
      statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: env.DB_LOCK_TIMEOUT_MS,
    });
    return parse({
      ...settings,
      ...(o.pgbouncerUrl === 'flagged'
        ? { DATABASE_URL: `${entry}?pgbouncer=true`, DATABASE_DIRECT_URL: database.url }
        : { DATABASE_URL: entry }),
    });
  };
  const redis: TestRedis = o.redis ?? (await createTestRedis());
  const db: Db = createDb({ databaseUrl: database.url, poolSize: 5 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  const masterKey = randomBytes(32).toString('hex');
  const box = new SecretBox(masterKey);
  const receiver = await startWebhookReceiver();
  const merchant = await createMerchant(db, { name: 'Boutique Test', webhookUrl: receiver.url });
  const key = await createApiKey(db, box, merchant.id);
  const logger = o.logger ?? createLogger('e2e', process.env.E2E_LOG_LEVEL ?? 'silent');

  const sandboxToken = randomBytes(16).toString('hex');
  const simulatorOn = (port: number) =>
    startSimulator({
      port,
      host: '127.0.0.1',
      apiToken: 'sim-token',
      sandboxToken,
      callbackSecret: 'sim-callback-secret',
      outcomeDelayMs: o.outcomeDelayMs ?? 50,
      lateConfirmDelayMs: o.lateConfirmDelayMs ?? 1500,
      hangMs: o.hangMs ?? 1500,
      callbackRetryDelaysMs: [50, 100, 200],
      recordsDir: o.operatorRecordsDir ?? null,
      log: () => undefined,
    });
  let sim: RunningSimulator = await simulatorOn(0);
  const base = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    MASTER_KEY: masterKey,
    LOG_LEVEL: 'silent',
    DB_POOL_SIZE: '5',
    ...o.redis?.env,
    OPERATOR_BASE_URL: sim.url,
    OPERATOR_TIMEOUT_MS: String(o.operatorTimeoutMs ?? 1000),
    // The automatic breaker off unless a suite asks for it: the operator faults these suites inject would
    // otherwise mark the account down (503 for new cash-ins) in the middle of what they check.
    OPERATOR_BREAKER_THRESHOLD: String(o.operatorBreakerThreshold ?? 0),
    OUTBOX_RELAY_INTERVAL_MS: String(o.relayIntervalMs ?? 100),
    OUTBOX_GRACE_MS: String(o.relayGraceMs ?? 300),
  };
  const jobOptions = { backoff: { type: 'fixed', delay: 50 } };

  const gatewaySettings = {
    ...base,
    GATEWAY_PORT: '0',
    GATEWAY_INTERNAL_PORT: '0',
    CASHIN_ACK_WAIT_MS: String(o.ackWaitMs ?? 3000),
    PUBLIC_BASE_URL: 'http://pay.example.test',
  };
  const gateway = await startGateway(await configured(gatewayEnv, { ...gatewaySettings, ...o.gatewayEnv }), {
    logger,
    jobOptions,
  });
  const extraGateways: RunningGateway[] = [];
  const bridgeSettings = await configured(bridgeEnv, {
    ...base,
    OPERATOR_BRIDGE_PORT: '0',
    CASHIN_CONFIRMATION_TIMEOUT_S: String(o.confirmationTimeoutS ?? 300),
    ...o.bridgeEnv,
  });
  // The bridge's callback URL must be known before it listens: take a free port first (and keep its
  // internal port across a restart, so its URL below stays right).
  const freePort = distinctFreePorts();
  const bridgePort = await freePort();
  bridgeSettings.OPERATOR_BRIDGE_PORT = bridgePort;
  bridgeSettings.OPERATOR_CALLBACK_BASE_URL = `http://127.0.0.1:${bridgePort}`;
  bridgeSettings.OPERATOR_BRIDGE_INTERNAL_PORT = await freePort();
  const startBridge = () => startOperatorBridge(bridgeSettings, { logger, jobOptions });
  let bridge = o.withoutBridge ? null : await startBridge();
  const expiry = await startExpiryWorker(await configured(expiryEnv, { ...base, EXPIRY_WORKER_PORT: '0' }), {
    logger,
    jobOptions,
  });
  const refunds = await startRefundWorker(await configured(refundEnv, { ...base, REFUND_WORKER_PORT: '0' }), {
    logger,
    jobOptions,
  });
  const dispatcher = await startWebhookDispatcher(
    await configured(dispatcherEnv, {
      ...base,
      WEBHOOK_DISPATCHER_PORT: '0',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE_S: o.webhookScheduleS ?? '0.05,0.05,0.05,0.05,0.05,0.05',
      WEBHOOK_TIMEOUT_MS: '1000',
      ...o.dispatcherEnv,
    }),
    { logger },
  );

  return {
    db,
    database,
    redis,
    sandboxToken,
    receiver,
    /** The running simulator (another object after restartSimulator(), at the same URL). */
    get sim(): RunningSimulator {
      return sim;
    },
    /** Stops the simulator and starts it again on its port (what it keeps: `operatorRecordsDir`). */
    async restartSimulator() {
      await sim.close();
      sim = await simulatorOn(sim.port);
    },
    /** The settings every service was given to reach this Redis beyond REDIS_URL (a cluster's nodes). */
    redisEnv: o.redis?.env ?? {},
    /** The simulator's sandbox routes and virtual phone, with the sandbox token. */
    sandbox: sandboxFetch(sim.url, sandboxToken),
    merchant: { id: merchant.id, ...key },
    box,
    masterKey,
    gatewayUrl: gateway.url,
    bridgeUrl: `http://127.0.0.1:${bridgePort}`,
    /** Where each service serves /health, /ready and /metrics: its internal port (a worker's only one). */
    internalUrls: {
      gateway: gateway.internalUrl,
      bridge: `http://127.0.0.1:${bridgeSettings.OPERATOR_BRIDGE_INTERNAL_PORT}`,
      expiry: expiry.internalUrl,
      refunds: refunds.internalUrl,
      dispatcher: dispatcher.internalUrl,
    },
    api: signedClient(gateway.url, key.apiKey, key.apiSecret),
    /** Another gateway instance on the same database and Redis, with settings of its own (e.g. a low rate limit). */
    async startExtraGateway(env: Record<string, string>) {
      const extra = await startGateway(await configured(gatewayEnv, { ...gatewaySettings, ...env }), {
        logger,
        jobOptions,
      });
      extraGateways.push(extra);
      return {
        url: extra.url,
        internalUrl: extra.internalUrl,
        api: signedClient(extra.url, key.apiKey, key.apiSecret),
      };
    },
    async startBridge() {
      bridge ??= await startBridge();
    },
    async stopBridge() {
      await bridge?.stop();
      bridge = null;
    },
    async stop() {
      await gateway.stop();
      for (const extra of extraGateways) await extra.stop();
      await bridge?.stop();
      await expiry.stop();
      await refunds.stop();
      await dispatcher.stop();
      await sim.close();
      await receiver.close();
      await db.$disconnect();
      await redis.close();
      await bouncer?.stop();
      await database.drop();
    },
  };
}

export type System = Awaited<ReturnType<typeof startSystem>>;

/** Test numbers of the simulator (decisions 11), Côte d'Ivoire. */
export const CI_NUMBER = (suffix: string) => `+22507070000${suffix}`;
