import pg from 'pg';
import { rawAccessOf, type Db, type RawAccess } from './client.js';
import type { Prisma } from '../generated/prisma/client.js';

const INT8_OID = 20;

/** Rows come out as Prisma types them: bigint columns as bigint (timestamptz as Date, jsonb parsed: pg's own). */
export const PRISMA_LIKE_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (v: string) => BigInt(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Distinct statement texts named per process; past it a new text is sent unnamed (a bound on what each connection keeps). */
export const MAX_NAMED_STATEMENTS = 500;
const names = new Map<string, string>();

/**
 * The name a statement text is prepared under, one per distinct text in this process (`mm_s<n>`), or
 * undefined (sent unnamed) once MAX_NAMED_STATEMENTS texts have names. A named statement is parsed
 * and planned once per connection, then each run sends only its values: the hot path's statements are
 * CTEs (a move with its history row, jobs and posting) whose parse and plan cost PostgreSQL more than
 * their execution. Their result columns are listed by name, never `*`, so a migration that adds a
 * column re-plans them instead of failing ("cached plan must not change result type").
 */
export function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED_STATEMENTS) return known;
  const name = `mm_s${names.size}`;
  names.set(text, name);
  return name;
}

/** pg's query config of a statement: named when the client may prepare statements (RawAccess.namedStatements). */
export function queryConfig(sql: Prisma.Sql, namedStatements: boolean): pg.QueryConfig {
  // pg prepares by name only when one is given (an undefined name is an unnamed statement).
  return {
    name: namedStatements ? statementName(sql.text) : undefined,
    text: sql.text,
    values: sql.values as unknown[],
    types: PRISMA_LIKE_TYPES,
  };
}

/**
 * `sent`, a statement of queryConfig, with its error told to the client's PoolingMismatches first: a
 * named statement's refusal that says DB_POOLING is wrong is logged as such (pooling-mismatch.ts).
 */
export function noticingMismatches<R>(access: Pick<RawAccess, 'mismatches'>, sent: Promise<R>): Promise<R> {
  const { mismatches } = access;
  if (!mismatches) return sent;
  return sent.catch((err: unknown) => {
    mismatches.notice(err);
    throw err;
  });
}

/**
 * A statement built with Prisma.sql, sent on the client's own pg pool (createDb) instead of through
 * Prisma: for the single statements every cash-in sends, where Prisma's per-query work was the cost
 * (docs/performance-log.md). Autocommit: never inside a Prisma transaction, whose connection it is not.
 */
export async function rawQuery<T>(db: Db, sql: Prisma.Sql): Promise<T[]> {
  const access = rawAccessOf(db);
  access.onQuery?.(sql.text);
  const result = await noticingMismatches(
    access,
    access.pool.query<T & pg.QueryResultRow>(queryConfig(sql, access.namedStatements)),
  );
  return result.rows;
}
