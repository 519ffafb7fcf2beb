import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { PoolingMismatches } from './pooling-mismatch.js';

export type Db = PrismaClient;
/** The client handed to a callback of `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface DbOptions {
  databaseUrl: string;
  /** Pool size per process; small by default because every service and test opens its own. */
  poolSize?: number;
  /** Called for every query sent: lets a test prove that a request read nothing from the database. */
  onQuery?: (query: string) => void;
  /**
   * How long a query waits for a connection, from the pool or a new one (Prisma's maxWait too); past
   * it the query fails at once instead of queueing behind a database that does not answer.
   */
  connectTimeoutMs?: number;
  /** PostgreSQL's statement_timeout for every connection of the pool; 0: none. */
  statementTimeoutMs?: number;
  /** PostgreSQL's lock_timeout: a lock (a balance row another transaction holds) waited for at most this long; 0: none. */
  lockTimeoutMs?: number;
  /** Prisma's interactive transaction timeout: past it the transaction is rolled back (P2028). */
  transactionTimeoutMs?: number;
  /**
   * What is at databaseUrl. 'direct' (the default): PostgreSQL, or a pooler in session mode. 'transaction':
   * a pooler in transaction mode (PgBouncer's pool_mode=transaction), where each transaction may run on
   * another server connection: nothing is set per connection from here (PgBouncer refuses those startup
   * parameters; the pooler's own connections carry the timeouts, checked by assertPoolerSettings) and no
   * statement is prepared by name (another client's connection would not have it).
   */
  pooling?: DbPooling;
  /**
   * Hears a pooled connection failing outside any query (the server ending it: a restart, a shutdown,
   * pg_terminate_backend): the first sign of PostgreSQL going away, before any query fails on it.
   */
  onConnectionError?: (err: Error) => void;
  /**
   * Told when PostgreSQL refuses a statement in a way only a wrong setting explains: a statement
   * prepared by name meeting a server connection that did not prepare it (DB_POOLING=direct behind a
   * pooler in transaction mode; pooling-mismatch.ts). At most once a minute; each one is counted
   * (configurationErrorsOf). The service logs it as the configuration error it is.
   */
  onMisconfiguration?: (problem: string, err: Error) => void;
  /** The clock of the once-a-minute report (tests). */
  now?: () => number;
}

export type DbPooling = 'direct' | 'transaction';

/** The pg pool under a client's Prisma adapter, for the few reads sent without Prisma (transaction-status.ts). */
export interface RawAccess {
  pool: pg.Pool;
  onQuery?: (query: string) => void;
  /** The pool's statement_timeout (0: none) and the client's transaction timeout: runPgTransaction's bounds. */
  statementTimeoutMs: number;
  transactionTimeoutMs: number;
  /** False through a transaction-mode pooler: statements are sent unnamed (DbOptions.pooling). */
  namedStatements: boolean;
  /** Where the errors of statements sent by name are told (null when none are): DbOptions.onMisconfiguration. */
  mismatches: PoolingMismatches | null;
}

const raw = new WeakMap<Db, RawAccess>();

/**
 * One pg pool per client, created here and handed to Prisma's adapter (which ends it on $disconnect),
 * so that a read sent without Prisma shares the client's connections instead of opening more.
 */
export function createDb(o: DbOptions): Db {
  const { databaseUrl, poolSize = 10, onQuery, connectTimeoutMs = 2000, transactionTimeoutMs = 5000 } = o;
  const pooled = o.pooling === 'transaction';
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    // Server-side limits: PostgreSQL cancels the statement and the transaction rolls back, so a query
    // that ran out of time is known to have changed nothing (a client-side timer would not know).
    // Through a transaction-mode pooler the pooler's connections carry them (assertPoolerSettings).
    ...(o.statementTimeoutMs && !pooled ? { statement_timeout: o.statementTimeoutMs } : {}),
    ...(o.lockTimeoutMs && !pooled ? { lock_timeout: o.lockTimeoutMs } : {}),
    // A server that vanished without closing its sockets (a host down, a network cut) is noticed.
    keepAlive: true,
  });
  // An idle connection the server ends (a restart, pg_terminate_backend, a dropped test database) is
  // reported here and dropped from the pool; without a listener that report would end the process.
  // The next query opens a new connection, and a query that was running fails on its own.
  const heard = (err: Error) => o.onConnectionError?.(err);
  pool.on('error', heard);
  // The same for a connection checked out of the pool with no query running on it (a transaction
  // between two statements, a client between its release and the pool taking it back): a FATAL the
  // server sends then (a postmaster killed -9, pg_terminate_backend) is emitted on the client, and
  // unheard it ends the process (seen in the chaos suite: the webhook dispatcher died with PostgreSQL).
  // Heard here, the client is marked unusable, its next query fails as unavailable, and the pool drops it.
  pool.on('connect', (client) => {
    client.on('error', heard);
  });
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  // 'minimal': no call-site capture (a stack trace per query) on the hot path.
  const transactionOptions = { maxWait: connectTimeoutMs, timeout: transactionTimeoutMs };
  const db = onQuery
    ? new PrismaClient({
        adapter,
        errorFormat: 'minimal',
        transactionOptions,
        log: [{ emit: 'event', level: 'query' }],
      })
    : new PrismaClient({ adapter, errorFormat: 'minimal', transactionOptions });
  if (onQuery) (db as PrismaClient<'query'>).$on('query', (e) => onQuery(e.query));
  raw.set(db as Db, {
    pool,
    onQuery,
    statementTimeoutMs: o.statementTimeoutMs ?? 0,
    transactionTimeoutMs,
    namedStatements: !pooled,
    mismatches: pooled ? null : new PoolingMismatches(o.onMisconfiguration, o.now),
  });
  return db as Db;
}

/**
 * How many statements of `db` PostgreSQL refused as only a wrong setting explains (DbOptions
 * onMisconfiguration): the services' mm_db_configuration_errors_total.
 */
export function configurationErrorsOf(db: Db): number {
  return rawAccessOf(db).mismatches?.count ?? 0;
}

/** The pool of a client made by createDb. */
export function rawAccessOf(db: Db): RawAccess {
  const access = raw.get(db);
  if (!access) throw new Error('rawAccessOf: this client was not made by createDb()');
  return access;
}
