import { rawAccessOf, type Db } from './client.js';

export interface ConnectionTimeouts {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

/** The two timeouts a connection of `db` runs with, as PostgreSQL reports them (pg_settings gives both in ms). */
export async function connectionTimeouts(db: Db): Promise<ConnectionTimeouts> {
  const { rows } = await rawAccessOf(db).pool.query<{ name: string; setting: string }>(
    `SELECT name, setting FROM pg_settings WHERE name IN ('statement_timeout', 'lock_timeout')`,
  );
  const ms = (name: string) => Number(rows.find((r) => r.name === name)?.setting ?? 0);
  return { statementTimeoutMs: ms('statement_timeout'), lockTimeoutMs: ms('lock_timeout') };
}

/**
 * Through a transaction-mode pooler a service cannot set its timeouts on the connections (PgBouncer
 * refuses them as startup parameters, and a session SET would leak to whoever gets the server connection
 * next): the pooler's own connections must carry them (PgBouncer: `connect_query` of the database entry,
 * or `ALTER ROLE … SET`). Without them a gateway request would wait for a locked balance row for as long
 * as the lock is held instead of answering 503 within its bound, so a service refuses to start unless
 * what a connection reports is what it is configured for.
 */
export async function assertPoolerSettings(db: Db, want: ConnectionTimeouts): Promise<void> {
  const have = await connectionTimeouts(db);
  if (have.statementTimeoutMs === want.statementTimeoutMs && have.lockTimeoutMs === want.lockTimeoutMs) return;
  throw new Error(
    `DB_POOLING=transaction: the pooler's connections run with statement_timeout ${have.statementTimeoutMs} ms and lock_timeout ` +
      `${have.lockTimeoutMs} ms, where this service is configured with DB_STATEMENT_TIMEOUT_MS=${want.statementTimeoutMs} and ` +
      `DB_LOCK_TIMEOUT_MS=${want.lockTimeoutMs}: set them on the pooler's database entry (PgBouncer: connect_query = 'SET ` +
      `statement_timeout = ${want.statementTimeoutMs}; SET lock_timeout = ${want.lockTimeoutMs}', docs/deployment.md)`,
  );
}
