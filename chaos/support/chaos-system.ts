import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createDb, type Db, SecretBox } from '@mm/db';
import { createApiKey, createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { setOperatorAccountCredentials, upsertOperatorAccount } from '@mm/db/operator-accounts';
import { demoMockAccounts, mockUrls, type MockUrls } from '@mm/operator-mocks';
import {
  createTestDatabase,
  distinctFreePorts,
  PrivatePostgres,
  PrivateRedisCluster,
  signedClient,
  type TestDatabase,
} from '@mm/testing';
import { startMerchantReceiver, type MerchantReceiver } from './merchant-receiver.js';
import { PrivateRedis } from './private-redis.js';
import { PrivateSentinels } from './private-sentinels.js';
import { LOG_DIR, ServiceProcess } from './service-process.js';
import { OperatorMocksControl } from './operator-mocks-control.js';
import { SimulatorControl } from './simulator-control.js';

/** Timings of one suite, all short so that expiry, retries and recovery happen in seconds. */
export interface ChaosOptions {
  /** Log file names start with it. */
  suite: string;
  confirmationTimeoutS?: number;
  /** Status polls of PENDING cash-ins (CASHIN_STATUS_POLL_S); none by default. */
  statusPollS?: string;
  outcomeDelayMs?: number;
  lateConfirmDelayMs?: number;
  operatorTimeoutMs?: number;
  /** OPERATOR_BREAKER_THRESHOLD (0, off, by default). */
  operatorBreakerThreshold?: number;
  webhookScheduleS?: string;
  webhookTimeoutMs?: number;
  /** LOG_LEVEL of every service; CHAOS_LOG_LEVEL or info by default. */
  logLevel?: string;
  /** Extra options of node for every service (the benchmark's --cpu-prof). */
  nodeArgs?: string[];
  /** Extra environment per service (every instance of it), e.g. a fault hook of the gateway. */
  env?: Partial<Record<ServiceName, Record<string, string>>>;
  /**
   * Instances of the gateway and of each worker (1 by default), each its own process and port, all on
   * the same database and Redis. The operator simulator stays single: its state is in memory.
   */
  replicas?: number;
  /**
   * Runs the real operators' contract mocks as their own process, as `pnpm start` does (services/operator-mocks:
   * free ports, Wave's outcomes by number and its webhooks to the first bridge), with the operator accounts of CI,
   * SN and CM pointed at them and enabled: numbers then route to MTN, Orange and (named) Wave as in production.
   */
  operatorMocks?: boolean;
  /**
   * The suite's database on a PostgreSQL cluster of its own (support/private-postgres.ts) instead of the
   * machine's shared server, for the suites that kill it, cut its connections or fill it.
   */
  privatePostgres?: boolean | { maxConnections?: number };
  /**
   * Redis behind Sentinel: `redis` is the primary, with a replica and three sentinels of the suite's own,
   * and every service is given REDIS_SENTINELS instead of reaching `redis` directly.
   */
  redisSentinel?: boolean;
  /**
   * Every service on a 3-master Redis Cluster of the suite's own (REDIS_CLUSTER_NODES, REDIS_PREFIX `{chaos}`)
   * instead of `redis`, which then only stands by (its helpers read the `chaos:` keys of the other modes).
   */
  redisCluster?: boolean;
}

export const SERVICE_NAMES = ['simulator', 'gateway', 'bridge', 'expiry', 'refunds', 'dispatcher'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
/** The services that can run as several instances. */
export const REPLICATED = [
  'gateway',
  'bridge',
  'expiry',
  'refunds',
  'dispatcher',
] as const satisfies readonly ServiceName[];

/**
 * The whole system for one chaos suite, every service its own process: its own database, its own
 * Redis server, the operator simulator, and a merchant whose webhook endpoint is in this process.
 */
export async function startChaosSystem(o: ChaosOptions) {
  // Teardown steps, newest first when run: a failure at any point of the start undoes what was done,
  // so nothing (process, Redis server, database) outlives a suite that could not start.
  const teardown: (() => Promise<unknown>)[] = [];
  try {
    return await build(o, teardown);
  } catch (err) {
    for (const step of [...teardown].reverse()) await step().catch(() => undefined);
    throw err;
  }
}

async function build(o: ChaosOptions, teardown: (() => Promise<unknown>)[]) {
  mkdirSync(LOG_DIR, { recursive: true });
  const postgres = o.privatePostgres
    ? await PrivatePostgres.start({
        ...(typeof o.privatePostgres === 'object' ? o.privatePostgres : {}),
        logFile: `${LOG_DIR}/${o.suite}-postgres.log`,
      })
    : null;
  if (postgres) teardown.push(() => postgres.stop());
  const database: TestDatabase = await createTestDatabase(postgres ? { adminUrl: postgres.url('postgres') } : {});
  // On the private cluster the database goes with the cluster, and may be down when the suite ends.
  if (!postgres) teardown.push(() => database.drop());
  const redis = await PrivateRedis.start();
  teardown.push(() => redis.stop());
  // Behind Sentinel: a replica of it and three sentinels, which the services ask for the primary.
  const replica = o.redisSentinel ? await PrivateRedis.start({ replicaOf: redis.port }) : null;
  if (replica) teardown.push(() => replica.stop());
  const sentinels = o.redisSentinel ? await PrivateSentinels.start(redis.port, { replicas: 1 }) : null;
  if (sentinels) teardown.push(() => sentinels.stop());
  const redisCluster = o.redisCluster ? await PrivateRedisCluster.start(3) : null;
  if (redisCluster) teardown.push(() => redisCluster.stop());
  const db: Db = createDb({ databaseUrl: database.url, poolSize: 4 });
  teardown.push(() => db.$disconnect());
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  const masterKey = randomBytes(32).toString('hex');
  /** Every merchant endpoint of the suite: the default one, and those given as notify_url. */
  const receivers: MerchantReceiver[] = [await startMerchantReceiver()];
  teardown.push(async () => {
    for (const r of receivers) await r.close();
  });
  const receiver = receivers[0]!;
  const merchant = await createMerchant(db, { name: 'Boutique Chaos', webhookUrl: receiver.url });
  const key = await createApiKey(db, new SecretBox(masterKey), merchant.id);

  const url = (p: number) => `http://127.0.0.1:${p}`;
  // Every process of the system binds its own ports later: they must all differ.
  const freePort = distinctFreePorts();
  const simulatorPort = await freePort();
  // Known before the simulator starts: Wave posts its webhooks to the first bridge's callback route.
  const firstBridgePort = await freePort();
  const mocks = o.operatorMocks ? await configureOperatorMocks(db, new SecretBox(masterKey), freePort) : null;
  const sandboxToken = randomBytes(16).toString('hex');
  // The simulator's and the mocks' alike, as pnpm start gives both processes the same.
  const delays = {
    SIM_OUTCOME_DELAY_MS: String(o.outcomeDelayMs ?? 300),
    SIM_LATE_CONFIRM_DELAY_MS: String(o.lateConfirmDelayMs ?? 60_000),
  };
  const common = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: 'chaos',
    MASTER_KEY: masterKey,
    ...(sentinels ? { REDIS_SENTINELS: sentinels.addresses, REDIS_SENTINEL_MASTER: sentinels.master } : {}),
    // REDIS_URL names no server then: a connection made from it instead of the cluster's nodes fails at once.
    ...(redisCluster
      ? { REDIS_CLUSTER_NODES: redisCluster.nodes, REDIS_PREFIX: '{chaos}', REDIS_URL: 'redis://127.0.0.1:1' }
      : {}),
    LOG_LEVEL: o.logLevel ?? process.env.CHAOS_LOG_LEVEL ?? 'info',
    DB_POOL_SIZE: '5',
    OPERATOR_BASE_URL: url(simulatorPort),
    OPERATOR_TIMEOUT_MS: String(o.operatorTimeoutMs ?? 2000),
    // The automatic breaker off unless a suite asks for it: the operator faults these suites inject would
    // otherwise mark the account down (503 for new cash-ins) in the middle of what they check.
    OPERATOR_BREAKER_THRESHOLD: String(o.operatorBreakerThreshold ?? 0),
    OUTBOX_RELAY_INTERVAL_MS: '250',
    OUTBOX_GRACE_MS: '1500',
    WORKER_LOCK_MS: '2000',
  };
  /**
   * What each service needs of its own, given the ports of the instance: `internal` when /ready and
   * /metrics are on a port of their own (services with public routes), else on its one port.
   */
  const own: Record<
    ServiceName,
    {
      dir: string;
      internal?: true;
      readyPath?: string;
      env(port: number, internalPort: number): Record<string, string>;
    }
  > = {
    simulator: {
      dir: 'operator-simulator',
      readyPath: '/health',
      env: (p) => ({
        OPERATOR_SIMULATOR_PORT: String(p),
        SIM_SANDBOX_TOKEN: sandboxToken,
        ...delays,
        SIM_HANG_MS: '5000',
      }),
    },
    gateway: {
      dir: 'gateway',
      internal: true,
      env: (p, ip) => ({
        GATEWAY_PORT: String(p),
        GATEWAY_INTERNAL_PORT: String(ip),
        PUBLIC_BASE_URL: url(p),
        CASHIN_ACK_WAIT_MS: '1500',
        // The load of a suite is one merchant's: the limiter is tested elsewhere.
        RATE_LIMIT_PER_S: '5000',
        RATE_LIMIT_BURST: '10000',
        // Every request comes from 127.0.0.1, and bad-input sends hundreds of failed authentications on
        // purpose: the limit per client address is tested elsewhere (e2e/auth-failure-limit.test.ts).
        AUTH_FAILURE_LIMIT: '1000000',
      }),
    },
    // Each bridge gives the operator its own callback address, as replicas behind no balancer would.
    bridge: {
      dir: 'operator-bridge',
      internal: true,
      env: (p, ip) => ({
        OPERATOR_BRIDGE_PORT: String(p),
        OPERATOR_BRIDGE_INTERNAL_PORT: String(ip),
        OPERATOR_CALLBACK_BASE_URL: url(p),
        CASHIN_CONFIRMATION_TIMEOUT_S: String(o.confirmationTimeoutS ?? 6),
        CASHIN_STATUS_POLL_S: o.statusPollS ?? '',
      }),
    },
    expiry: { dir: 'expiry-worker', env: (p) => ({ EXPIRY_WORKER_PORT: String(p) }) },
    refunds: { dir: 'refund-worker', env: (p) => ({ REFUND_WORKER_PORT: String(p) }) },
    dispatcher: {
      dir: 'webhook-dispatcher',
      env: (p) => ({
        WEBHOOK_DISPATCHER_PORT: String(p),
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_S: o.webhookScheduleS ?? '0.2,0.4,0.8,1,1,1',
        WEBHOOK_TIMEOUT_MS: String(o.webhookTimeoutMs ?? 1000),
      }),
    },
  };
  /** Instance 0 keeps the plain name (and log file) every single-instance suite has always used. */
  const instance = async (name: ServiceName, i: number, port: number) => {
    const id = i === 0 ? name : `${name}-${i}`;
    const internalPort = own[name].internal ? await freePort() : port;
    return new ServiceProcess({
      name: id,
      dir: own[name].dir,
      url: url(port),
      internalUrl: url(internalPort),
      readyUrl: `${url(internalPort)}${own[name].readyPath ?? '/ready'}`,
      logFile: `${LOG_DIR}/${o.suite}-${id}.log`,
      nodeArgs: o.nodeArgs,
      env: {
        ...common,
        ...(postgres ? { DATABASE_URL: namedUrl(database.url, id) } : {}),
        ...own[name].env(port, internalPort),
        ...o.env?.[name],
      },
    });
  };
  const replicas = o.replicas ?? 1;
  const instances = { simulator: [await instance('simulator', 0, simulatorPort)] } as Record<
    ServiceName,
    ServiceProcess[]
  >;
  for (const name of REPLICATED) {
    instances[name] = [];
    for (let i = 0; i < replicas; i++)
      instances[name].push(await instance(name, i, name === 'bridge' && i === 0 ? firstBridgePort : await freePort()));
  }
  const services = Object.fromEntries(SERVICE_NAMES.map((n) => [n, instances[n][0]!])) as Record<
    ServiceName,
    ServiceProcess
  >;
  const mocksProcess = mocks
    ? operatorMocksProcess(o, mocks.urls, `${url(firstBridgePort)}/operator/callbacks/wave/ci`, {
        LOG_LEVEL: common.LOG_LEVEL,
        ...delays,
      })
    : null;
  const all = [...SERVICE_NAMES.flatMap((n) => instances[n]), ...(mocksProcess ? [mocksProcess] : [])];

  // Callers first, the operators last, as a deployment would be drained; replicas of one service together.
  const stopOrder = [...REPLICATED, 'simulator'] as const;
  const exits: Record<string, NodeJS.Signals | number | null> = {};
  teardown.push(async () => {
    for (const name of stopOrder)
      await Promise.all(
        instances[name].map(async (s) => {
          exits[s.spec.name] = await s.stop();
        }),
      );
    if (mocksProcess) exits[mocksProcess.spec.name] = await mocksProcess.stop();
  });
  const started = await Promise.allSettled(all.map((s) => s.start()));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  await mocks?.ready();
  const gatewayUrls = instances.gateway.map((s) => s.spec.url);

  return {
    db,
    database,
    redis,
    receiver,
    receivers,
    /** With `redisSentinel`: the replica `redis` fails over to, and the sentinels that decide it. */
    redisReplica: replica,
    sentinels,
    /** With `redisCluster`: the cluster every service uses. */
    redisCluster,
    /** The suite's own PostgreSQL cluster, where `database` is, when started with `privatePostgres`. */
    postgres,
    /** Instance 0 of each service. */
    services,
    /** Every instance of each service (one each unless `replicas`). */
    instances,
    merchant: { id: merchant.id, ...key },
    /** How long the simulator takes to decide a push it decides by itself (SIM_OUTCOME_DELAY_MS). */
    outcomeDelayMs: o.outcomeDelayMs ?? 300,
    /** What `pnpm admin` needs to act on this system (its database, secrets' key, simulator). */
    adminEnv: {
      DATABASE_URL: database.url,
      MASTER_KEY: masterKey,
      OPERATOR_BASE_URL: url(simulatorPort),
      LOG_LEVEL: 'silent',
    },
    gatewayUrl: gatewayUrls[0]!,
    simulator: new SimulatorControl(url(simulatorPort), sandboxToken),
    /** The real operators' mocks (their records), when started with `operatorMocks`. */
    operators: mocks,
    api: signedClient(gatewayUrls[0]!, key.apiKey, key.apiSecret),
    /** The merchant's client of each gateway instance. */
    apis: gatewayUrls.map((u) => signedClient(u, key.apiKey, key.apiSecret)),
    /** Another endpoint of the merchant, for cash-ins that name it as notify_url. */
    async addReceiver(): Promise<MerchantReceiver> {
      const r = await startMerchantReceiver();
      receivers.push(r);
      return r;
    },
    /** Stops every service with SIGTERM and frees the rest; throws unless each service exited 0. */
    async stop(): Promise<void> {
      // Every step even after one failed: the last ones free what would outlive the run (the private cluster).
      const failures: unknown[] = [];
      for (const step of [...teardown].reverse()) await step().catch((err: unknown) => failures.push(err));
      if (failures.length > 0) throw failures[0];
      const unclean = Object.entries(exits).filter(([, how]) => how !== 0);
      if (unclean.length > 0)
        throw new Error(
          `services did not shut down cleanly on SIGTERM: ${JSON.stringify(Object.fromEntries(unclean))}`,
        );
    },
  };
}

export type ChaosSystem = Awaited<ReturnType<typeof startChaosSystem>>;

/**
 * Picks the mocks' ports and configures the operator accounts on them in the suite's database (credentials
 * sealed with its MASTER_KEY), enabled: the gateway routes by them, the bridge and workers build adapters from them.
 */
async function configureOperatorMocks(
  db: Db,
  box: SecretBox,
  freePort: () => Promise<number>,
): Promise<OperatorMocksControl> {
  const urls = mockUrls({
    mtnCi: await freePort(),
    mtnCm: await freePort(),
    orangeWebpay: await freePort(),
    orangeMp: await freePort(),
    wave: await freePort(),
  });
  for (const a of demoMockAccounts(urls)) {
    await upsertOperatorAccount(db, {
      countryCode: a.countryCode,
      operator: a.operator,
      api: a.api,
      baseUrl: a.baseUrl,
      settings: a.settings,
    });
    await setOperatorAccountCredentials(db, box, a.countryCode, a.operator, a.credentials);
    await upsertOperatorAccount(db, { countryCode: a.countryCode, operator: a.operator, api: a.api, enabled: true });
  }
  return new OperatorMocksControl(urls);
}

/** Its connections named after the service (application_name): the private cluster's log says who waited on what. */
function namedUrl(databaseUrl: string, service: string): string {
  const u = new URL(databaseUrl);
  u.searchParams.set('application_name', service);
  return u.toString();
}

/** The mocks' process on those ports (its settings: services/operator-mocks/src/mock-env.ts). */
function operatorMocksProcess(
  o: ChaosOptions,
  urls: MockUrls,
  waveWebhookUrl: string,
  shared: Record<string, string>,
): ServiceProcess {
  const port = (u: string) => new URL(u).port;
  return new ServiceProcess({
    name: 'mocks',
    dir: 'operator-mocks',
    url: urls.mtnCi,
    internalUrl: urls.mtnCi,
    // Wave is the last mock it starts: once it answers, so does every other.
    readyUrl: `${urls.wave}/_mock/records`,
    logFile: `${LOG_DIR}/${o.suite}-mocks.log`,
    nodeArgs: o.nodeArgs,
    env: {
      ...shared,
      MOCK_MTN_CI_PORT: port(urls.mtnCi),
      MOCK_MTN_CM_PORT: port(urls.mtnCm),
      MOCK_ORANGE_WEBPAY_PORT: port(urls.orangeWebpay),
      MOCK_ORANGE_MP_PORT: port(urls.orangeMp),
      MOCK_WAVE_PORT: port(urls.wave),
      MOCK_WAVE_WEBHOOK_URL: waveWebhookUrl,
      MOCK_WAVE_AUTOPAY: 'true',
    },
  });
}
