import {
  allowedSources, NOTIFIED_STATUSES, transactionPosting, transactionStatusChangedPayload,
  type TransactionStatus, type TransactionType,
} from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import { rawQuery, retryOnConflict } from '../database/index.js';
import { Prisma, type Transaction } from '../generated/prisma/client.js';
import { postedCount, postingCte } from '../ledger/index.js';
import type { OutboxRow } from '../outbox/index.js';
import { firstPendingCheck } from './pending-checks.js';
import { changeStatement, type NewJob } from './record-change.js';
import { webhookEventStatement } from '../webhooks/index.js';
import { snapshotOf } from './snapshot.js';
import { definedFields, setColumns, transactionColumns } from './transaction-row.js';

export { EXPIRY_TOPIC } from './pending-checks.js';

export interface TransitionPatch {
  providerState?: string | null;
  providerTxnStatus?: string | null;
  providerTxId?: string | null;
  providerSessionId?: string | null;
  failureCode?: string | null;
  failureReason?: string | null;
  /** What the customer must do, as the operator's answer to the push said (a redirect URL, a code). */
  customerAction?: { type: string; [field: string]: string };
  /** With `to: 'PENDING'`: when the expiry check runs. */
  expiresAt?: Date;
  /** With `to: 'PENDING'`: earlier status polls of the operator (those before expiresAt are kept). */
  pollAt?: Date[];
}

export interface TransitionRequest {
  transactionId: string;
  to: TransactionStatus;
  /** Narrows the allowed sources (an approval moves only a cash-out that awaits one). */
  from?: readonly TransactionStatus[];
  /** Only a transaction of this type moves (an operator's cash-in result must never touch a cash-out). */
  ofType?: TransactionType;
  /** Why, for the audit trail: 'operator-ack', 'operator-result:callback', 'expiry', ... */
  cause: string;
  patch?: TransitionPatch;
  /** Kept on the history row for the back-office timeline (who decided, what they wrote). */
  detail?: Record<string, string | null>;
  /** Jobs the move queues (an approved cash-out's operator request), written with its history row. */
  jobs?: NewJob[];
  now?: Date;
}

export interface TransitionOutcome {
  from: TransactionStatus;
  transaction: Transaction;
  /** Jobs to publish once the database transaction has committed. */
  outbox: OutboxRow[];
}

/** A transaction row read under its lock for a move, with its merchant's webhook URL (lockForMove). */
export type LockedTransaction = Transaction & { webhookUrl: string | null };

/**
 * The row's lock for a move, reading the whole row (the state machine runs here, on it) and the
 * merchant's webhook URL. By its provider reference for an operator's word about it, which then needs
 * no read of its own before the transaction.
 */
export async function lockForMove(tx: Tx, by: { id: string } | { providerReference: string }): Promise<LockedTransaction | null> {
  const where = 'id' in by ? Prisma.sql`t.id = ${by.id}::uuid` : Prisma.sql`t.provider_reference = ${by.providerReference}`;
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
export async function moveLocked(tx: Tx, locked: LockedTransaction, req: TransitionRequest): Promise<TransitionOutcome | null> {
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
export async function moveIfUnchanged(db: Db, seen: SeenTransaction, req: TransitionRequest): Promise<TransitionOutcome | null | 'changed'> {
  if (NOTIFIED_STATUSES.includes(seen.status as TransactionStatus)) throw new Error(`moveIfUnchanged of ${seen.id}: a ${seen.status} row may have webhook events`);
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

interface MoveResult { held: boolean | null; postedCount: number | null }

interface PlannedMove {
  /** The move's statement; `guard` narrows its UPDATE, `check` adds result columns. */
  statement(guard: Prisma.Sql, check: Prisma.Sql): Prisma.Sql;
  outcome(row: MoveResult | undefined): TransitionOutcome;
}

/**
 * A move computed from the row it starts from (the state machine runs here): null when the row is not
 * in an allowed source status (duplicate and late messages are harmless), else its one statement with
 * its history, jobs, webhook event and posting.
 */
function planMove(locked: LockedTransaction, req: TransitionRequest): PlannedMove | null {
  if (locked.id !== req.transactionId) throw new Error(`move of ${req.transactionId} asked on the locked row of ${locked.id}`);
  const now = req.now ?? new Date();
  const { webhookUrl, ...current } = locked;
  const from = current.status as TransactionStatus;
  const type = current.type as TransactionType;
  if (!allowedSources(req.to, type).includes(from)) return null;
  if (req.from && !req.from.includes(from)) return null;
  if (req.ofType && req.ofType !== type) return null;

  const { expiresAt, pollAt: _polls, ...patch } = req.patch ?? {};
  const terminal = NOTIFIED_STATUSES.includes(req.to);
  const changed: Partial<Transaction> = definedFields({
    ...patch,
    status: req.to,
    updatedAt: now,
    ...(expiresAt ? { expiresAt } : {}),
    ...(terminal ? { completedAt: now } : {}),
  });
  const transaction: Transaction = { ...current, ...changed };

  const jobs = jobsOfMove(req);
  const change = changeStatement({
    transactionId: transaction.id, fromStatus: from, toStatus: req.to, cause: req.cause, createdAt: now, detail: eventDetail(patch, req.detail),
  }, jobs);
  const event = terminal
    ? webhookEventStatement({
      merchantId: transaction.merchantId,
      transactionId: transaction.id,
      eventType: 'transaction.status_changed',
      targetUrl: transaction.notifyUrl ?? webhookUrl,
      buildPayload: (eventId) => transactionStatusChangedPayload(snapshotOf(transaction), eventId, now),
    }, now)
    : null;
  // The posting is part of the same statement (postingCte); the merchant's balance rows, the hot
  // ones, are locked only while the transaction commits.
  const posting = transactionPosting(type, from, req.to, Number(transaction.amount));
  const scope = { merchantId: transaction.merchantId, countryCode: transaction.countryCode, currency: transaction.currency };
  return {
    statement: (guard, check) => Prisma.sql`
    WITH moved AS (UPDATE transactions SET ${setColumns(changed)} WHERE id = ${transaction.id}::uuid ${guard} RETURNING id),
    ${change.ctes}
    ${event ? Prisma.sql`, ${event.ctes}` : Prisma.empty}
    ${posting ? Prisma.sql`, ${postingCte('moved', scope, posting, transaction.id)}` : Prisma.empty}
    SELECT ${event ? Prisma.sql`(SELECT held FROM earlier)` : Prisma.sql`NULL::boolean`} AS held, ${posting ? postedCount : Prisma.sql`NULL::int AS "postedCount"`}${check}`,
    outcome: (row) => {
      if (posting && row?.postedCount !== 1) throw new Error(`transaction ${transaction.id}: its ${posting.name} posting was not written`);
      const outbox = [...change.outbox];
      const eventJob = event?.outboxRow(row?.held === true);
      if (eventJob) outbox.push(eventJob);
      return { from, transaction, outbox };
    },
  };
}

/** The jobs a move queues: the caller's, and a PENDING cash-in's first check (its first poll, else its expiry). */
export function jobsOfMove(req: TransitionRequest): NewJob[] {
  const jobs: NewJob[] = [...(req.jobs ?? [])];
  const { expiresAt, pollAt = [] } = req.patch ?? {};
  if (req.to === 'PENDING' && expiresAt) jobs.push(firstPendingCheck(req.transactionId, pollAt, expiresAt));
  return jobs;
}

/** What the operator said with this change (its raw state and codes), plus the caller's own detail. */
export function eventDetail(patch: Omit<TransitionPatch, 'expiresAt' | 'pollAt'>, extra: Record<string, string | null> | undefined): Record<string, string | null> | null {
  const said: Record<string, string | null> = {};
  if (patch.providerState !== undefined) said.provider_state = patch.providerState;
  if (patch.providerTxnStatus !== undefined) said.provider_txn_status = patch.providerTxnStatus;
  if (patch.failureCode !== undefined) said.failure_code = patch.failureCode;
  if (patch.failureReason !== undefined) said.failure_reason = patch.failureReason;
  if (patch.providerTxId !== undefined) said.provider_tx_id = patch.providerTxId;
  const all = { ...said, ...extra };
  return Object.keys(all).length > 0 ? all : null;
}
