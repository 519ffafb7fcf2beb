import { NOTIFIED_STATUSES, type TransactionStatus } from '@mm/domain';
import type { Db, Tx } from '../../database/index.js';
import { rawQuery, retryOnConflict } from '../../database/index.js';
import { Prisma } from '../../generated/prisma/client.js';
import { transactionColumns } from '../transaction-row.js';
import {
  planMove,
  type LockedTransaction,
  type MoveResult,
  type TransitionOutcome,
  type TransitionRequest,
} from './plan-move.js';

export { EXPIRY_TOPIC } from '../pending-checks.js';
export type { LockedTransaction, TransitionOutcome, TransitionPatch, TransitionRequest } from './plan-move.js';

/**
 * The row's lock for a move, reading the whole row (the state machine runs here, on it) and the
 * merchant's webhook URL. By its provider reference for an operator's word about it, which then needs
 * no read of its own before the transaction.
 */
export async function lockForMove(
  tx: Tx,
  by: { id: string } | { providerReference: string },
): Promise<LockedTransaction | null> {
  const where =
    'id' in by ? Prisma.sql`t.id = ${by.id}::uuid` : Prisma.sql`t.provider_reference = ${by.providerReference}`;
  const [locked] = await tx.$queryRaw<LockedTransaction[]>`
    SELECT ${transactionColumns('t')}, m.webhook_url AS "webhookUrl" FROM transactions t JOIN merchants m ON m.id = t.merchant_id
     WHERE ${where} FOR UPDATE OF t`;
  return locked ?? null;
}

/**
 * The one way a transaction changes state: a conditional move from an allowed source status, its
 * journal entries, its history row and its outbox rows, all inside the caller's database transaction.
 * Returns null (and writes nothing) when the row is not in an allowed source status: duplicate and
 * late messages are harmless.
 *
 * Two round trips whatever the move: the row's lock (which reads the whole row, and the merchant's
 * webhook URL), and one statement for the move with its history, jobs, webhook event and posting.
 * The moved row is computed here from the locked one, which nothing else can change meanwhile.
 */
export async function transition(tx: Tx, req: TransitionRequest): Promise<TransitionOutcome | null> {
  const locked = await lockForMove(tx, { id: req.transactionId });
  return locked ? moveLocked(tx, locked, req) : null;
}

/** transition() of a row the caller locked with lockForMove in the same database transaction (`req.transactionId` is its id). */
export async function moveLocked(
  tx: Tx,
  locked: LockedTransaction,
  req: TransitionRequest,
): Promise<TransitionOutcome | null> {
  const move = planMove(locked, req);
  if (!move) return null;
  const [row] = await tx.$queryRaw<MoveResult[]>(move.statement(Prisma.empty, Prisma.empty));
  return move.outcome(row);
}

/**
 * A row as a statement returned it (a cash-in's acknowledgement), with its version (PostgreSQL's xmin,
 * which every update of the row changes and a lock does not) and its merchant's webhook URL then.
 */
export type SeenTransaction = LockedTransaction & { rowVersion: string };

/**
 * transition() of a row as it was seen, in one autocommit statement and without its lock taken first:
 * the move is planned on the seen row, and the statement applies it only if the row is still that
 * version and the merchant's webhook URL still that one; otherwise it raises row_changed_since_read,
 * which undoes all its writes, and 'changed' is returned for the caller to take the lock and decide
 * again. Null when the state machine refuses the move on the seen row (nothing sent).
 *
 * Only for a row whose status sends no webhook (PENDING): its held check (an earlier event of the
 * transaction still PENDING) is read at the statement's start, before the row's lock, so it could miss
 * the release of an earlier event committed meanwhile (the reason record_webhook_attempt locks first);
 * a row in such a status has no webhook event, and its version proves none was added.
 */
export async function moveIfUnchanged(
  db: Db,
  seen: SeenTransaction,
  req: TransitionRequest,
): Promise<TransitionOutcome | null | 'changed'> {
  if (NOTIFIED_STATUSES.includes(seen.status as TransactionStatus))
    throw new Error(`moveIfUnchanged of ${seen.id}: a ${seen.status} row may have webhook events`);
  const { rowVersion, ...locked } = seen;
  const move = planMove(locked, req);
  if (!move) return null;
  const guard = Prisma.sql`AND xmin = ${rowVersion}::xid
      AND (SELECT webhook_url FROM merchants WHERE id = ${seen.merchantId}::uuid) IS NOT DISTINCT FROM ${seen.webhookUrl}::text`;
  const check = Prisma.sql`, CASE WHEN EXISTS (SELECT 1 FROM moved) THEN true ELSE row_changed_since_read(${seen.id}::uuid) END AS unchanged`;
  try {
    const [row] = await retryOnConflict(() => rawQuery<MoveResult>(db, move.statement(guard, check)));
    return move.outcome(row);
  } catch (err) {
    if ((err as { code?: unknown }).code === ROW_CHANGED) return 'changed';
    throw err;
  }
}

/** The SQLSTATE row_changed_since_read raises. */
const ROW_CHANGED = 'MM409';
