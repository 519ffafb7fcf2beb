import type pg from 'pg';
import { rawAccessOf, type Db, type RawAccess, type Tx } from './client.js';
import { Prisma } from '../generated/prisma/client.js';
import { isConnectionLost } from './database-unavailable.js';
import { noticingMismatches, queryConfig } from './raw-query.js';
import { retryOnConflict, type RunTransactionOptions } from './run-transaction.js';

/** Thrown when `fn` of runPgTransaction uses anything of `tx` but $queryRaw and $executeRaw: a bug, never retried. */
export class NotRawStatementError extends Error {
  override name = 'NotRawStatementError';
}

/**
 * The connection of a pg transaction seen as a Prisma `Tx` that knows $queryRaw and $executeRaw only,
 * with the rows typed as Prisma types them (PRISMA_LIKE_TYPES, as rawQuery). Anything else (a model
 * query such as `tx.outbox.create`) throws at once: through Prisma it would run on another connection,
 * outside this transaction.
 */
function rawTx(client: pg.PoolClient, access: RawAccess): Tx {
  const run = async (first: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const sql = first instanceof Prisma.Sql ? first : Prisma.sql(first, ...values);
    access.onQuery?.(sql.text);
    return noticingMismatches(access, client.query(queryConfig(sql, access.namedStatements)));
  };
  const statements = {
    $queryRaw: async (first: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      (await run(first, values)).rows,
    $executeRaw: async (first: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      (await run(first, values)).rowCount ?? 0,
  };
  return new Proxy(statements, {
    get(target, key) {
      if (key === '$queryRaw' || key === '$executeRaw') return target[key];
      if (key === 'then') return undefined; // not a thenable: `await`ing it must not call anything
      throw new NotRawStatementError(
        `tx.${String(key)} in a pg transaction: only $queryRaw and $executeRaw run on its connection`,
      );
    },
  }) as unknown as Tx;
}

/**
 * runTransaction's work (BEGIN, `fn`, COMMIT, the whole run again after a deadlock or a serialization
 * failure) on a connection of the client's pg pool instead of a Prisma interactive transaction, whose
 * client-side work costs several times a pg BEGIN/COMMIT (docs/performance-log.md): for the transactions
 * every payment makes whose statements are all $queryRaw / $executeRaw (an operator's result applied
 * to its cash-in). The same limits hold: the pool's lock timeout, and no statement (COMMIT included)
 * runs longer than the smaller of the pool's statement timeout and the client's transaction timeout
 * (either one when the other is 0; set with BEGIN, in the same round trip). Errors are pg's own, which
 * isDatabaseUnavailable, isRetryableTransactionError and isOverdraft read.
 */
export async function runPgTransaction<T>(
  db: Db,
  fn: (tx: Tx) => Promise<T>,
  options: Omit<RunTransactionOptions, 'resolveInDoubtCommit'> = {},
): Promise<T> {
  const access = rawAccessOf(db);
  const { pool, onQuery, statementTimeoutMs, transactionTimeoutMs } = access;
  const limits = [statementTimeoutMs, transactionTimeoutMs].filter((ms) => ms > 0);
  const bound = limits.length > 0 ? Math.min(...limits) : 0; // 0: PostgreSQL's "none"
  const begin = `BEGIN; SET LOCAL statement_timeout = ${Math.round(bound)}`;
  return retryOnConflict(async () => {
    const client = await pool.connect();
    let lost = false;
    try {
      // Reported as Prisma reports its transactions: the COMMIT stands for the BEGIN too.
      await client.query(begin);
      const result = await fn(rawTx(client, access));
      onQuery?.('COMMIT');
      await client.query('COMMIT');
      return result;
    } catch (err) {
      lost = isConnectionLost(err);
      if (!lost)
        await client.query('ROLLBACK').catch(() => {
          lost = true;
        });
      throw err;
    } finally {
      // A connection lost or in an unknown state is dropped, never handed to the next caller.
      client.release(lost ? new Error('connection dropped after a failed transaction') : undefined);
    }
  }, options);
}
