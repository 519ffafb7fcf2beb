import {
  allowedSources,
  NOTIFIED_STATUSES,
  transactionPosting,
  type TransactionStatus,
  type TransactionType,
} from '@mm/domain';
import type { Db } from '../../database/index.js';
import { Prisma, type Transaction } from '../../generated/prisma/client.js';
import { completeOutbox, completeOutboxSql } from '../../outbox/index.js';
import { rawQuery, retryOnConflict, runTransaction } from '../../database/index.js';
import { historyCte, newOutboxRows, outboxInsert } from './change-rows.js';
import { setColumns, transactionColumns } from '../transaction-row.js';
import { eventDetail, jobsOfMove, type TransitionOutcome, type TransitionRequest } from './plan-move.js';
import { transition, type SeenTransaction } from './transition.js';

export interface MoveNowOptions {
  /** An outbox row marked done with the move, whether the move happens or not (the job that asked for it). */
  completesOutbox?: string;
}

/**
 * transition() for a move that writes no journal and no webhook event (a cash-in handed to the bridge,
 * acknowledged by the operator): the same conditional move, history row and jobs, in one autocommit
 * statement instead of a database transaction of four round trips, on the path every cash-in takes
 * twice. The type is named, so the possible sources and their postings are known before the row is
 * read; a move that could post or notify from one of them runs through transition() as usual. The
 * statement goes on the client's pg pool (rawQuery), without Prisma's per-query work. A move made so
 * returns the row as seen (its version and its merchant's webhook URL), from which the next move can be
 * made without the lock first (moveIfUnchanged).
 */
export async function moveNow(
  db: Db,
  req: TransitionRequest & { ofType: TransactionType },
  options: MoveNowOptions = {},
): Promise<(TransitionOutcome & { seen?: SeenTransaction }) | null> {
  const sources = allowedSources(req.to, req.ofType).filter((s) => !req.from || req.from.includes(s));
  const effectless =
    !NOTIFIED_STATUSES.includes(req.to) && sources.every((s) => transactionPosting(req.ofType, s, req.to, 1) === null);
  if (!effectless) {
    return runTransaction(db, async (tx) => {
      const moved = await transition(tx, req);
      if (options.completesOutbox) await completeOutbox(tx, options.completesOutbox);
      return moved;
    });
  }
  const now = req.now ?? new Date();
  const { expiresAt, pollAt: _polls, ...patch } = req.patch ?? {};
  const changed: Partial<Transaction> = {
    ...patch,
    status: req.to,
    updatedAt: now,
    ...(expiresAt ? { expiresAt } : {}),
  };
  const outbox = newOutboxRows(jobsOfMove(req), now);
  const detail = eventDetail(patch, req.detail);
  const jobs =
    outbox.length === 0
      ? Prisma.empty
      : Prisma.sql`, jobs AS (${outboxInsert(outbox, Prisma.sql`WHERE EXISTS (SELECT 1 FROM moved)`)})`;
  const done = options.completesOutbox
    ? Prisma.sql`, done AS (${completeOutboxSql(options.completesOutbox, now)})`
    : Prisma.empty;
  const [row] = await retryOnConflict(() =>
    rawQuery<SeenTransaction & { fromStatus: TransactionStatus }>(
      db,
      Prisma.sql`
    WITH old AS (
      SELECT t.id, t.status, m.webhook_url FROM transactions t JOIN merchants m ON m.id = t.merchant_id
       WHERE t.id = ${req.transactionId}::uuid FOR UPDATE OF t),
    -- The id again, not only the join: a generic plan of the named statement, made while the table's
    -- statistics still said "small", scans the whole table to join it with old.
    moved AS (
      UPDATE transactions t SET ${setColumns(changed)} FROM old
       WHERE t.id = ${req.transactionId}::uuid AND t.id = old.id AND old.status = ANY(${sources as string[]}::text[]) AND t.type = ${req.ofType}
      RETURNING ${transactionColumns('t')}, old.status AS "fromStatus", old.webhook_url AS "webhookUrl", t.xmin::text AS "rowVersion"),
    -- The history row's source status is the one the lock found.
    ${historyCte({ transactionId: Prisma.sql`moved.id`, fromStatus: Prisma.sql`moved."fromStatus"`, toStatus: req.to, cause: req.cause, detail, createdAt: now }, Prisma.sql`FROM moved`)}
    ${jobs}
    ${done}
    SELECT * FROM moved`,
    ),
  );
  if (!row) return null;
  const { fromStatus, webhookUrl, rowVersion, ...transaction } = row;
  return { from: fromStatus, transaction, outbox, seen: { ...transaction, webhookUrl, rowVersion } };
}
