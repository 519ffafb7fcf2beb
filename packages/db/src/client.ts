import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;
/** The client handed to a callback of `db.$transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface DbOptions {
  databaseUrl: string;
  /** Pool size per process; small by default because every service and test opens its own. */
  poolSize?: number;
}

export function createDb({ databaseUrl, poolSize = 10 }: DbOptions): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  // 'minimal': no call-site capture (a stack trace per query) on the hot path.
  return new PrismaClient({ adapter, errorFormat: 'minimal' });
}
