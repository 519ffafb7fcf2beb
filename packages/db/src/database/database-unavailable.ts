import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';

/**
 * Prisma's codes for a database that cannot be reached or used in time: can't reach (P1001), timed out
 * (P1002, P1008), connection closed (P1017), no connection from the pool in time (P2024), transaction API
 * gave up, its start or its run out of time (P2028), a conflict still failing after its retries (P2034),
 * too many connections (P2037).
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034', 'P2037']);
/**
 * P2028 also names a transaction used after it ended ("not found", "already closed": a missing await),
 * which is a bug: only its two ways of running out of time are the database being slow.
 */
const P2028_OUT_OF_TIME = /Unable to start a transaction in the given time|expired transaction/;

/**
 * PostgreSQL's: the connection lost or refused (class 08), the server out of resources (class 53:
 * max_connections reached, out of memory or disk), shutting down, starting up or the session ended by
 * an administrator (57P01-57P03), a statement cancelled by statement_timeout (57014), a lock not
 * obtained within lock_timeout (55P03), and conflicts still failing after their retries (40001, 40P01).
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('53') || code.startsWith('57P') || UNAVAILABLE_SQLSTATES.has(code);
}
/**
 * Class 08 by name: 08P01 (protocol violation) is what a statement with the wrong number of parameters
 * raises, a bug; 08007 (transaction resolution unknown) is not "nothing happened".
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57014',
  '55P03',
  '40001',
  '40P01',
]);

/** Node's socket errors: the server refused, reset or never answered the connection. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * node-postgres's own errors, which carry no code: a pool that found no connection within
 * connectionTimeoutMillis, a connection that ended under a query, a client no longer usable.
 */
const PG_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /^Connection terminated/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end on the pool/i,
];

/**
 * PgBouncer's own refusals, all sent as SQLSTATE 08P01 (a protocol violation, which from PostgreSQL is a
 * client's bug and not "try again"): the server behind it cannot be reached, or no server connection
 * came free for the query within query_wait_timeout (docs/deployment.md).
 */
const POOLER_MESSAGES = [
  /server login has been failing/i,
  /query_wait_timeout/i,
  /pgbouncer cannot connect to server/i,
  /server conn crashed/i,
  /no more connections allowed/i,
  /client_login_timeout/i,
];

function isPoolerRefusal(code: unknown, message: unknown): boolean {
  return code === '08P01' && typeof message === 'string' && POOLER_MESSAGES.some((re) => re.test(message));
}

type DriverCause = { kind?: unknown; originalCode?: unknown; originalMessage?: unknown };

/** The driver's error a Prisma error wraps, when it kept it. */
function driverCauseOf(err: Prisma.PrismaClientKnownRequestError): DriverCause | undefined {
  return (err.meta?.driverAdapterError as { cause?: DriverCause } | undefined)?.cause;
}

const UNAVAILABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TransactionWriteConflict',
]);

function isUnavailableCause(cause: DriverCause | undefined): boolean {
  if (!cause) return false;
  if (typeof cause.kind === 'string' && UNAVAILABLE_KINDS.has(cause.kind)) return true;
  if (isPoolerRefusal(cause.originalCode, cause.originalMessage)) return true;
  return typeof cause.originalCode === 'string' && isUnavailableSqlState(cause.originalCode);
}

/**
 * True when `err` says the database could not do the work now (down, restarting, out of connections,
 * the session killed, a lock or statement out of time, a conflict past its retries), not that the work
 * is wrong: the caller answers "try again later" (a 503 with Retry-After, a job retried with backoff)
 * instead of an internal error. PostgreSQL rolled back whatever the failed transaction had done,
 * except in the one case no client can tell: the connection lost while COMMIT was on its way, which
 * is why every write the API takes is idempotent (merchant_order_id, Idempotency-Key, the signature).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 5) return false;
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    if (err.code === 'P2028') return P2028_OUT_OF_TIME.test(err.message);
    return PRISMA_CODES.has(err.code) || isUnavailableCause(driverCauseOf(err));
  }
  // Raised before a query could run: the engine could not connect at all (not refused credentials,
  // P1000, a configuration fault that waiting does not mend).
  if (err instanceof Prisma.PrismaClientInitializationError) return err.errorCode !== 'P1000';
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown; originalCode?: unknown };
  if (err instanceof pg.DatabaseError)
    return typeof e.code === 'string' && (isUnavailableSqlState(e.code) || isPoolerRefusal(e.code, e.message));
  if (typeof e.code === 'string' && SOCKET_CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && PG_MESSAGES.some((re) => re.test(e.message as string))) return true;
  // Prisma's DriverAdapterError carries the driver's view as `cause` ({kind, originalCode}).
  if (isUnavailableCause(e as DriverCause)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * The connection itself was lost (refused, reset, terminated, closed under a query): the one failure
 * after which a COMMIT already sent may or may not have been carried out.
 */
export function isConnectionLost(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 5) return false;
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    if (err.code === 'P1017' || err.code === 'P1001') return true;
    const cause = driverCauseOf(err);
    return (
      cause?.kind === 'ConnectionClosed' ||
      cause?.kind === 'DatabaseNotReachable' ||
      (typeof cause?.originalCode === 'string' &&
        (cause.originalCode.startsWith('08') || cause.originalCode.startsWith('57P')))
    );
  }
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown };
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || e.code.startsWith('08') || e.code.startsWith('57P')))
    return true;
  if (typeof e.message === 'string' && /^Connection terminated|is not queryable/i.test(e.message)) return true;
  if (e.kind === 'ConnectionClosed') return true;
  return isConnectionLost(e.cause, depth + 1);
}

/**
 * A transaction whose work was done and whose COMMIT was on its way when the connection was lost: it
 * may have been committed. Not "unavailable" (a 503 says "the same again", which a request without an
 * idempotency key must not be told): the caller reads the result back. The driver's error is kept as
 * `lost`, not as `cause`, so that isDatabaseUnavailable does not find it.
 */
export class CommitOutcomeUnknownError extends Error {
  override name = 'CommitOutcomeUnknownError';
  constructor(readonly lost: unknown) {
    super('the connection was lost while the transaction was committing: it may or may not have been committed');
  }
}
