import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { Prisma } from '../generated/prisma/client.js';
import type { Db, Tx } from './client.js';
import { CommitOutcomeUnknownError, isConnectionLost } from './database-unavailable.js';

/**
 * Errors after which the whole transaction can run again at once, with a fair chance to pass: a
 * serialization failure or a deadlock (PostgreSQL 40001 / 40P01), P2034 from a query of the client.
 * Not a transaction that ran out of time or found no connection (P2028, P2024): the database is slow or
 * full, and running it again in the same request would only make the caller wait longer; those fail
 * as unavailable (isDatabaseUnavailable), a 503 with Retry-After or a job retried with backoff.
 */
const RETRYABLE = new Set(['P2034']);
/** The same conflicts raised by a raw query ($queryRaw, $executeRaw) arrive as P2010 with the driver's code. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

export function isRetryableTransactionError(err: unknown): boolean {
  // A statement sent on the pg pool itself (rawQuery) fails with PostgreSQL's own error.
  if (err instanceof pg.DatabaseError) return err.code !== undefined && RETRYABLE_SQLSTATES.has(err.code);
  // A conflict raised by COMMIT itself (the deferred trigger booking balances, ledger.ts) reaches the
  // caller as the adapter's own error, unwrapped, with the driver's view as its cause.
  if (err instanceof Error && err.name === 'DriverAdapterError') {
    const code = (err.cause as { originalCode?: unknown } | undefined)?.originalCode;
    return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
  }
  if (!(err instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (RETRYABLE.has(err.code)) return true;
  const cause = (err.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return err.code === 'P2010' && typeof cause?.originalCode === 'string' && RETRYABLE_SQLSTATES.has(cause.originalCode);
}

export interface RunTransactionOptions {
  /** Runs after the first; 0 runs it once. */
  retries?: number;
  /** Before retry n (from 0): about baseDelayMs * 2^n, with full jitter so colliding runs spread out. */
  baseDelayMs?: number;
  onRetry?(err: unknown, retry: number): void;
  /**
   * For work that must not be done twice and whose caller cannot tell a retry from a new request (a
   * refund sent without Idempotency-Key): when the connection is lost while COMMIT is on its way, ask
   * PostgreSQL what became of the transaction (txid_status, one more statement per run) instead of
   * guessing. Committed: its result is returned. Rolled back: the loss is thrown as it is (unavailable:
   * try again). Unknown: CommitOutcomeUnknownError. Without it, the loss is thrown as it is: the work is
   * idempotent (merchant_order_id) or a job that runs again, and "try again" is the right answer.
   */
  resolveInDoubtCommit?: boolean;
  /**
   * With resolveInDoubtCommit: how long PostgreSQL may go on saying "in progress" before the outcome
   * is given up as unknown. The COMMIT may still be on its way to the server, or its backend may not
   * have noticed yet that its client is gone (it then rolls back); asked at once, it answers "in
   * progress" for a transaction that is committed a millisecond later.
   */
  inDoubtWaitMs?: number;
}

const DEFAULT_IN_DOUBT_WAIT_MS = 2_000;
const IN_DOUBT_POLL_MS = 25;

/**
 * db.$transaction(fn), run again a bounded number of times when it failed in a way that left nothing
 * behind and may pass at once (a deadlock, a serialization failure): the one place where the service
 * retries database work, so no caller hand-rolls it. `fn` must touch nothing but `tx`: it may run
 * several times. What still fails after the last retry is thrown as it is.
 */
export async function runTransaction<T>(
  db: Db,
  fn: (tx: Tx) => Promise<T>,
  options: RunTransactionOptions = {},
): Promise<T> {
  return retryOnConflict(async () => {
    // Once fn is done, Prisma sends COMMIT: a connection lost from then on leaves the outcome in doubt.
    let done: { result: T } | null = null;
    let xid: string | null = null;
    try {
      return await db.$transaction(async (tx) => {
        if (options.resolveInDoubtCommit)
          xid = (await tx.$queryRaw<{ xid: string }[]>`SELECT txid_current()::text AS xid`)[0]!.xid;
        const result = await fn(tx);
        done = { result };
        return result;
      });
    } catch (err) {
      if (done === null || xid === null || !isConnectionLost(err)) throw err;
      const status = await settledCommitStatus(db, xid, options.inDoubtWaitMs ?? DEFAULT_IN_DOUBT_WAIT_MS);
      if (status === 'committed') return (done as { result: T }).result;
      if (status === 'aborted') throw err;
      throw new CommitOutcomeUnknownError(err);
    }
  }, options);
}

/**
 * What PostgreSQL says of a transaction id once it is no longer in progress, or its last answer when
 * waitMs ran out. A question that failed (null: the same blip that cut the COMMIT may not be over) is
 * asked again too, within the same bound.
 */
async function settledCommitStatus(db: Db, xid: string, waitMs: number): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const status = await commitStatus(db, xid);
    if ((status !== 'in progress' && status !== null) || Date.now() >= deadline) return status;
    await sleep(IN_DOUBT_POLL_MS);
  }
}

/** What PostgreSQL says of a transaction id, on a new connection; null when it cannot be asked now. */
async function commitStatus(db: Db, xid: string): Promise<string | null> {
  try {
    const [row] = await db.$queryRaw<{ status: string | null }[]>`SELECT txid_status(${xid}::bigint) AS status`;
    return row?.status ?? null;
  } catch {
    return null;
  }
}

/**
 * `work` run again, like runTransaction, when it failed in a way that left nothing behind: for work
 * that is a database transaction on its own (a single autocommit statement) as much as for one
 * opened with $transaction.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, options: RunTransactionOptions = {}): Promise<T> {
  const retries = options.retries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 25;
  for (let retry = 0; ; retry++) {
    try {
      return await work();
    } catch (err) {
      if (retry >= retries || !isRetryableTransactionError(err)) throw err;
      options.onRetry?.(err, retry);
      await sleep(Math.random() * baseDelayMs * 2 ** retry);
    }
  }
}
