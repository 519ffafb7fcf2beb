import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;
/** The client handed to a callback of `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface DbOptions {
  databaseUrl: string;
  /** Pool size per process; small by default because every service and test opens its own. */
  poolSize?: number;
  /** Called for every query sent: lets a test prove that a request read nothing from the database. */
  onQuery?: (query: string) => void;
}

/** The pg pool under a client's Prisma adapter, for the few reads sent without Prisma (transaction-status.ts). */
export interface RawAccess {
  pool: pg.Pool;
  onQuery?: (query: string) => void;
}

const raw = new WeakMap<Db, RawAccess>();

/**
 * One pg pool per client, created here and handed to Prisma's adapter (which ends it on $disconnect),
 * so that a read sent without Prisma shares the client's connections instead of opening more.
 */
export function createDb({ databaseUrl, poolSize = 10, onQuery }: DbOptions): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle connection the server ends (a restart, pg_terminate_backend, a dropped test database) is
  // reported here and dropped from the pool; without a listener that report would end the process.
  // The next query opens a new connection, and a query that was running fails on its own.
  pool.on('error', () => undefined);
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  // 'minimal': no call-site capture (a stack trace per query) on the hot path.
  const db = onQuery
    ? new PrismaClient({ adapter, errorFormat: 'minimal', log: [{ emit: 'event', level: 'query' }] })
    : new PrismaClient({ adapter, errorFormat: 'minimal' });
  if (onQuery) (db as PrismaClient<'query'>).$on('query', (e) => onQuery(e.query));
  raw.set(db as Db, { pool, onQuery });
  return db as Db;
}

/** The pool of a client made by createDb. */
export function rawAccessOf(db: Db): RawAccess {
  const access = raw.get(db);
  if (!access) throw new Error('rawAccessOf: this client was not made by createDb()');
  return access;
}
