import pg from 'pg';

/**
 * PostgreSQL's answers to a statement prepared by name that meets a server connection other than the
 * one it was prepared on: 26000 (`prepared statement "mm_s3" does not exist`) and 42P05 (`prepared
 * statement "mm_s3" already exists`, another client's). A pool of this process names its statements
 * only with DB_POOLING=direct (raw-query.ts), and on connections of its own neither can happen: a
 * pooler in transaction mode stands in front of PostgreSQL (PgBouncer pool_mode=transaction, which
 * hands each transaction, and each statement outside one, whichever server connection is free).
 */
const MISMATCH_CODES = new Set(['26000', '42P05']);

export function isPreparedStatementMismatch(err: unknown): boolean {
  return (
    err instanceof pg.DatabaseError &&
    err.code !== undefined &&
    MISMATCH_CODES.has(err.code) &&
    /prepared statement/.test(err.message)
  );
}

/** What the log says: a configuration error, with the setting to change. */
export const POOLING_MISMATCH_PROBLEM =
  'configuration error: a statement prepared by name met a server connection that did not prepare it ' +
  '(PostgreSQL 26000 "prepared statement does not exist" or 42P05 "already exists"): DATABASE_URL is a pooler in transaction mode ' +
  '(PgBouncer pool_mode=transaction) while this service runs with DB_POOLING=direct, which prepares statements on its connections. ' +
  'Set DB_POOLING=transaction and DATABASE_DIRECT_URL (PostgreSQL itself), or add pgbouncer=true to DATABASE_URL (docs/deployment.md)';

/** How often the problem is told at most: each statement refused is counted, one in this long is logged. */
export const POOLING_MISMATCH_REPORT_INTERVAL_MS = 60_000;

/**
 * The statements of one client refused for that reason: counted (mm_db_configuration_errors_total),
 * and told through `report` on the first and then at most once per interval, so a pool sending
 * thousands of them a second writes one line a minute, not thousands.
 */
export class PoolingMismatches {
  count = 0;
  private lastReportAt = -Infinity;

  constructor(
    private readonly report: ((problem: string, err: Error) => void) | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called with every error of a statement sent by name; anything else than a mismatch is left alone. */
  notice(err: unknown): void {
    if (!isPreparedStatementMismatch(err)) return;
    this.count += 1;
    const at = this.now();
    if (at - this.lastReportAt < POOLING_MISMATCH_REPORT_INTERVAL_MS) return;
    this.lastReportAt = at;
    this.report?.(POOLING_MISMATCH_PROBLEM, err as Error);
  }
}
