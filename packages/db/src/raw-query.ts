import pg from 'pg';
import { rawAccessOf, type Db } from './client.js';
import type { Prisma } from './generated/prisma/client.js';

const INT8_OID = 20;

/** Rows come out as Prisma types them: bigint columns as bigint (timestamptz as Date, jsonb parsed: pg's own). */
export const PRISMA_LIKE_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (v: string) => BigInt(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A statement built with Prisma.sql, sent on the client's own pg pool (createDb) instead of through
 * Prisma: for the single statements every cash-in sends, where Prisma's per-query work was the cost
 * (docs/performance.md). Autocommit: never inside a Prisma transaction, whose connection it is not.
 */
export async function rawQuery<T>(db: Db, sql: Prisma.Sql): Promise<T[]> {
  const { pool, onQuery } = rawAccessOf(db);
  onQuery?.(sql.text);
  const result = await pool.query<T & pg.QueryResultRow>({ text: sql.text, values: sql.values as unknown[], types: PRISMA_LIKE_TYPES });
  return result.rows;
}
