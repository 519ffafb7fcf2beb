import Joi from 'joi';
import { DEV_MASTER_KEY, SIMULATOR_API_TOKEN, SIMULATOR_CALLBACK_SECRET } from './published-secrets.js';

/** Values of the `common` fragment, as every service's env type includes them. */
export interface CommonEnv {
  /** sandbox (the simulator and contract mocks only, no real money) or live (real operators only): docs/deployment.md. */
  DEPLOYMENT_MODE: 'sandbox' | 'live';
  DATABASE_URL: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  LOG_LEVEL: string;
  DB_POOL_SIZE: number;
  DB_CONNECT_TIMEOUT_MS: number;
  DB_STATEMENT_TIMEOUT_MS: number;
  DB_LOCK_TIMEOUT_MS: number;
  DB_TRANSACTION_TIMEOUT_MS: number;
  DB_POOLING: 'direct' | 'transaction';
  DATABASE_DIRECT_URL?: string;
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_MASTER: string;
  REDIS_CLUSTER_NODES?: string;
}

/** Values of the `operator` fragment. */
export interface OperatorEnv {
  OPERATOR: 'simulator';
  OPERATOR_BASE_URL: string;
  OPERATOR_API_TOKEN: string;
  OPERATOR_CALLBACK_SECRET: string;
  OPERATOR_TIMEOUT_MS: number;
  /**
   * Opens the operator accounts' credentials (the same key as the gateway's API secrets). Unset in
   * production, only accounts without credentials (the simulator of these settings) can be used.
   */
  MASTER_KEY?: string;
  /** Operator accounts (their adapters) kept at most this long when change notifications are not heard. */
  REFERENCE_CACHE_TTL_S: number;
  /**
   * The breaker: an account whose operator did not answer this many calls in a row (from one process) is
   * marked down automatically (new cash-ins for it answer 503); 0 turns it off.
   */
  OPERATOR_BREAKER_THRESHOLD: number;
  /** Once marked down by the breaker, the operator is probed this often; the account is marked up when it answers. */
  OPERATOR_BREAKER_PROBE_S: number;
}

/** Values of the `relay` fragment: how a consumer re-publishes its lost outbox jobs. */
export interface RelayEnv {
  OUTBOX_RELAY_INTERVAL_MS: number;
  OUTBOX_GRACE_MS: number;
  OUTBOX_MAX_FAILED_RUNS: number;
  WORKER_LOCK_MS: number;
}

/** Values of the `retention` fragment: what the retention job deletes, and how often it runs. */
export interface RetentionEnv {
  RETENTION_INTERVAL_S: number;
  RETENTION_OUTBOX_DAYS: number;
  RETENTION_WEBHOOK_ATTEMPTS_DAYS: number;
  RETENTION_BATCH_SIZE: number;
}

/** Values of the `readReplica` fragment (the gateway's exports, the back-office's searches). */
export interface ReadReplicaEnv {
  DATABASE_REPLICA_URL?: string;
  REPLICA_MAX_LAG_S: number;
}

/** Values of the `referenceCache` fragment. */
export interface ReferenceCacheEnv {
  /** API keys, merchant statuses and subsidiaries kept in memory at most this long; 0 reads them every time. */
  REFERENCE_CACHE_TTL_S: number;
}

/** `pgbouncer=true` among DATABASE_URL's parameters (Prisma's flag for PgBouncer in transaction mode). */
const PGBOUNCER_FLAG = /\?(?:[^#]*&)?pgbouncer=true(?:[&#]|$)/;

/** Environment variables several services share, with their defaults (README, "Configuration"). */
export const common = {
  // One setting says whether money is real. Required in production, where a forgotten value must not
  // pick either side; a sandbox by default elsewhere (pnpm start, tests).
  DEPLOYMENT_MODE: Joi.string()
    .valid('sandbox', 'live')
    .when('NODE_ENV', { is: 'production', then: Joi.required(), otherwise: Joi.optional().default('sandbox') })
    .messages({
      'any.required':
        '{{#label}} is required with NODE_ENV=production: sandbox (the simulator and contract mocks, no real money) or live (real operators only)',
    }),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .default('postgresql://postgres@127.0.0.1:5432/mobilemoney'),
  REDIS_URL: Joi.string()
    .uri({ scheme: ['redis', 'rediss'] })
    .default('redis://127.0.0.1:6379'),
  // Redis behind Sentinel (docs/deployment.md): the sentinels' host:port, comma-separated; the primary is
  // whatever they name for REDIS_SENTINEL_MASTER, and REDIS_URL then gives only its password and db.
  REDIS_SENTINELS: Joi.string()
    .pattern(/^[^\s:,]+:\d+(,[^\s:,]+:\d+)*$/)
    .optional(),
  REDIS_SENTINEL_MASTER: Joi.string().default('mymaster'),
  // A Redis Cluster (docs/deployment.md): some of its nodes' host:port, comma-separated (the client finds
  // the rest); REDIS_URL then gives only the password. Not with REDIS_SENTINELS.
  REDIS_CLUSTER_NODES: Joi.string()
    .pattern(/^[^\s:,]+:\d+(,[^\s:,]+:\d+)*$/)
    .optional(),
  /** Every Redis key starts with it: lets several deployments (or test suites) share one Redis. */
  // On a Redis Cluster it is a hash tag, `{mm}` unless set: every key of ours then hashes to one slot,
  // which BullMQ's scripts (several keys of a queue at once) and the rate limiter's need.
  REDIS_PREFIX: Joi.string().when('REDIS_CLUSTER_NODES', {
    is: Joi.exist(),
    then: Joi.string()
      .pattern(/^\{[A-Za-z0-9_-]+\}$/, 'a hash tag such as {mm}')
      .default('{mm}'),
    otherwise: Joi.string()
      .pattern(/^[A-Za-z0-9_-]+$|^\{[A-Za-z0-9_-]+\}$/)
      .default('mm'),
  }),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  DB_POOL_SIZE: Joi.number().integer().min(1).max(100).default(10),
  // How long a query waits for a connection (from the pool, or a new one) before it fails as unavailable.
  // Long for the workers (a job that waits holds nobody's request; a failed attempt counts towards
  // parking); the gateway, which answers people, sets its own.
  DB_CONNECT_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  // PostgreSQL's statement_timeout and lock_timeout on every connection; 0: none. Off for the workers by
  // default: a job that waits holds no merchant, and its lock (WORKER_LOCK_MS) is extended while it runs.
  DB_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(0).default(0),
  DB_LOCK_TIMEOUT_MS: Joi.number().integer().min(0).default(0),
  // A database transaction opened by the service is rolled back past it.
  DB_TRANSACTION_TIMEOUT_MS: Joi.number().integer().min(100).default(5000),
  // 'transaction': DATABASE_URL is a pooler in transaction mode (PgBouncer pool_mode=transaction; docs/deployment.md).
  // Prisma's documented `?pgbouncer=true` on DATABASE_URL says the same, so it makes `transaction` the
  // default: a direct pool there prepares statements by name on connections the pooler swaps under it.
  DB_POOLING: Joi.string()
    .valid('direct', 'transaction')
    .when('DATABASE_URL', {
      is: Joi.string().pattern(PGBOUNCER_FLAG),
      then: Joi.valid(Joi.override, 'transaction')
        .default('transaction')
        .messages({
          'any.only':
            'DB_POOLING={{#value}} contradicts pgbouncer=true in DATABASE_URL, which says it is a pooler in transaction mode: ' +
            'set DB_POOLING=transaction (or leave it unset), or remove pgbouncer=true if DATABASE_URL is PostgreSQL itself or a pooler in session mode',
        }),
      otherwise: Joi.any().default('direct'),
    }),
  // PostgreSQL itself, for what needs a session of its own: LISTEN (reference changes) and migrations.
  // Required behind a transaction-mode pooler, where a LISTEN would hear nothing; DATABASE_URL otherwise.
  DATABASE_DIRECT_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .when('DB_POOLING', {
      is: 'transaction',
      then: Joi.required().messages({
        'any.required':
          'DATABASE_DIRECT_URL is required with transaction pooling (DB_POOLING=transaction, or pgbouncer=true in DATABASE_URL): ' +
          'PostgreSQL itself, not the pooler, for the LISTEN connection and migrations (docs/deployment.md)',
      }),
      otherwise: Joi.optional(),
    }),
};

/** Where a session of its own goes (LISTEN, migrations): DATABASE_DIRECT_URL, else DATABASE_URL. */
export function directDatabaseUrl(env: Pick<CommonEnv, 'DATABASE_URL' | 'DATABASE_DIRECT_URL'>): string {
  return env.DATABASE_DIRECT_URL ?? env.DATABASE_URL;
}

/** The database options of a service's environment (createDb's DbOptions). */
export function databaseOptions(env: CommonEnv): {
  databaseUrl: string;
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  transactionTimeoutMs: number;
  pooling: 'direct' | 'transaction';
} {
  return {
    databaseUrl: env.DATABASE_URL,
    poolSize: env.DB_POOL_SIZE,
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: env.DB_LOCK_TIMEOUT_MS,
    transactionTimeoutMs: env.DB_TRANSACTION_TIMEOUT_MS,
    pooling: env.DB_POOLING,
  };
}

export const masterKey = {
  /** 32 bytes, base64 or hex: encrypts API secrets at rest (AES-256-GCM). */
  MASTER_KEY: Joi.string().required(),
};

export const operator = {
  OPERATOR: Joi.string().valid('simulator').default('simulator'),
  OPERATOR_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:3003'),
  // The simulator's published values: a production process refuses them (published-secrets.ts).
  OPERATOR_API_TOKEN: Joi.string().default(SIMULATOR_API_TOKEN),
  OPERATOR_CALLBACK_SECRET: Joi.string().default(SIMULATOR_CALLBACK_SECRET),
  OPERATOR_TIMEOUT_MS: Joi.number().integer().min(50).default(10_000),
  // No default in production: the development key is published (published-secrets.ts refuses it there).
  MASTER_KEY: Joi.string().when('NODE_ENV', {
    is: 'production',
    then: Joi.optional(),
    otherwise: Joi.optional().default(DEV_MASTER_KEY),
  }),
  REFERENCE_CACHE_TTL_S: Joi.number().integer().min(0).default(60),
  OPERATOR_BREAKER_THRESHOLD: Joi.number().integer().min(0).default(10),
  // Decimals allowed so tests can probe within milliseconds.
  OPERATOR_BREAKER_PROBE_S: Joi.number().min(0.01).default(30),
};

/**
 * A streaming replica of PostgreSQL for merchants' exports and back-office searches (docs/deployment.md);
 * unset, they read the primary like everything else. Behind by more than REPLICA_MAX_LAG_S, or down,
 * it is not read and the primary answers.
 */
export const readReplica = {
  DATABASE_REPLICA_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .optional(),
  REPLICA_MAX_LAG_S: Joi.number().min(0).default(10),
};

/**
 * Changes are notified by PostgreSQL and drop the cache at once; the TTL bounds the staleness only if a
 * notification were lost without the LISTEN connection noticing.
 */
export const referenceCache = {
  REFERENCE_CACHE_TTL_S: Joi.number().integer().min(0).default(60),
};

export const relay = {
  OUTBOX_RELAY_INTERVAL_MS: Joi.number().integer().min(10).default(5000),
  OUTBOX_GRACE_MS: Joi.number().integer().min(0).default(10_000),
  /**
   * Runs (each one every BullMQ attempt of the job) after which a job that keeps failing is parked:
   * no longer re-published by the relay, listed in the back-office until a person runs it again.
   */
  OUTBOX_MAX_FAILED_RUNS: Joi.number().integer().min(1).default(5),
  /**
   * BullMQ's job lock: a worker killed mid-job leaves its jobs locked this long before another worker
   * takes them over (stall detection runs at the same interval). Shorter means faster recovery and more
   * lock renewals; the chaos suite shortens it.
   */
  WORKER_LOCK_MS: Joi.number().integer().min(1000).default(30_000),
};

/**
 * The retention job (docs/architecture.md, "Retention"): only operational rows are ever deleted, never
 * money or audit rows, whatever these say.
 */
export const retention = {
  // 0 schedules no run, and removes the schedule an earlier start left. Decimals so tests run it in milliseconds.
  RETENTION_INTERVAL_S: Joi.number().min(0).default(3600),
  // Completed outbox rows: nothing reads them once done; a week leaves time to look into an incident.
  RETENTION_OUTBOX_DAYS: Joi.number().integer().min(1).default(7),
  // The attempts of delivered or abandoned webhook events: the merchant lists them (GET /webhook-events)
  // and staff see them in the back-office, so a quarter, longer than any dispute about a notification.
  RETENTION_WEBHOOK_ATTEMPTS_DAYS: Joi.number().integer().min(1).default(90),
  // Rows per DELETE statement: each holds its row locks for one short statement.
  RETENTION_BATCH_SIZE: Joi.number().integer().min(1).max(10_000).default(1000),
};

/** The policy of a service's environment (pruneOperationalRows' RetentionPolicy). */
export function retentionPolicy(env: RetentionEnv): {
  outboxDays: number;
  webhookAttemptsDays: number;
  batchSize: number;
} {
  return {
    outboxDays: env.RETENTION_OUTBOX_DAYS,
    webhookAttemptsDays: env.RETENTION_WEBHOOK_ATTEMPTS_DAYS,
    batchSize: env.RETENTION_BATCH_SIZE,
  };
}

/** A list of seconds, decimals allowed so tests can run a schedule in milliseconds. */
export function secondsList() {
  return Joi.string().pattern(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/);
}

export function parseSecondsList(value: string): number[] {
  return value.split(',').map((s) => Math.round(Number(s.trim()) * 1000));
}

/** The demo merchant the development seed creates, with a known key (decisions 1). */
export const DEMO_MERCHANT = {
  name: 'Demo Shop',
  apiKey: 'pk_demo_5f1c2a9e4b7d4c3a8e6f0b1d2c3e4f50',
  apiSecret: 'sk_demo_9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f',
} as const;

/**
 * The demo staff the development seed creates (never in production): one per role, sharing a
 * published password, so the back-office can be tried at once.
 */
export const DEMO_STAFF = {
  password: 'demo-password',
  users: [
    { email: 'admin@demo.local', name: 'Demo Admin', role: 'admin' },
    { email: 'approver@demo.local', name: 'Demo Approver', role: 'approver' },
    { email: 'viewer@demo.local', name: 'Demo Viewer', role: 'viewer' },
  ],
} as const;

/**
 * The demo merchant's owner in the merchant portal, which the development seed creates (never in
 * production): a published password, a published TOTP secret already enrolled (base 32, what an
 * authenticator app takes typed in) and published recovery codes, so the portal can be tried at once
 * and its two-factor sign-in too. DEVELOPMENT SECRETS: anyone who has read this file can sign in as this
 * user, which is why a production service refuses a database where this account still works with them.
 */
/**
 * The demo merchant's payment link the development seed creates (never in production), under a slug
 * published here so that `pnpm start` can print its address: reusable, 5 000 F CFA in Côte d'Ivoire.
 */
export const DEMO_PAYMENT_LINK = {
  slug: 'DemoShopRobeWaxTailleM',
  description: 'Robe wax taille M',
  countryCode: 'CI',
  currency: 'XOF',
  amount: 5000,
} as const;

export const DEMO_PORTAL_OWNER = {
  email: 'owner@demo-shop.local',
  name: 'Demo Owner',
  role: 'owner',
  password: 'demo-owner-password',
  totpSecret: 'MMDEMOPORTALOWNERTOTPDEVONLY2345',
  recoveryCodes: ['demo2-recov', 'demo3-recov', 'demo4-recov'],
} as const;
