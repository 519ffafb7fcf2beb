import { PrismaPg } from '@prisma/adapter-pg';
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

export function createDb({ databaseUrl, poolSize = 10, onQuery }: DbOptions): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  // 'minimal': no call-site capture (a stack trace per query) on the hot path.
  if (!onQuery) return new PrismaClient({ adapter, errorFormat: 'minimal' });
  const db = new PrismaClient({ adapter, errorFormat: 'minimal', log: [{ emit: 'event', level: 'query' }] });
  db.$on('query', (e) => onQuery(e.query));
  return db as unknown as Db;
}
