import {
  allowedSources,
  NOTIFIED_STATUSES,
  transactionPosting,
  transactionStatusChangedPayload,
  type TransactionStatus,
  type TransactionType,
} from '@mm/domain';
import { Prisma, type Transaction } from '../../generated/prisma/client.js';
import { postedCount, postingCte } from '../../ledger/index.js';
import type { OutboxRow } from '../../outbox/index.js';
import { webhookEventStatement } from '../../webhooks/index.js';
import { firstPendingCheck } from '../pending-checks.js';
import { snapshotOf } from '../snapshot.js';
import { definedFields, setColumns } from '../transaction-row.js';
import { changeStatement, type NewJob } from './change-rows.js';

/*
 * The state machine's move, planned on the row it starts from: what every entry point of moves/ runs
 * (transition, moveIfUnchanged; moveNow writes the same rows for the moves that have no journal and no
 * webhook). Nothing here talks to the database.
 */

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

export interface MoveResult {
  held: boolean | null;
  postedCount: number | null;
}

export interface PlannedMove {
  /** The move's statement; `guard` narrows its UPDATE, `check` adds result columns. */
  statement(guard: Prisma.Sql, check: Prisma.Sql): Prisma.Sql;
  outcome(row: MoveResult | undefined): TransitionOutcome;
}

/**
 * A move computed from the row it starts from (the state machine runs here): null when the row is not
 * in an allowed source status (duplicate and late messages are harmless), else its one statement with
 * its history, jobs, webhook event and posting.
 */
export function planMove(locked: LockedTransaction, req: TransitionRequest): PlannedMove | null {
  if (locked.id !== req.transactionId)
    throw new Error(`move of ${req.transactionId} asked on the locked row of ${locked.id}`);
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
  const change = changeStatement(
    {
      transactionId: transaction.id,
      fromStatus: from,
      toStatus: req.to,
      cause: req.cause,
      createdAt: now,
      detail: eventDetail(patch, req.detail),
    },
    jobs,
  );
  const event = terminal
    ? webhookEventStatement(
        {
          merchantId: transaction.merchantId,
          transactionId: transaction.id,
          eventType: 'transaction.status_changed',
          targetUrl: transaction.notifyUrl ?? webhookUrl,
          buildPayload: (eventId) => transactionStatusChangedPayload(snapshotOf(transaction), eventId, now),
        },
        now,
      )
    : null;
  // The posting is part of the same statement (postingCte); the merchant's balance rows, the hot
  // ones, are locked only while the transaction commits.
  const posting = transactionPosting(type, from, req.to, Number(transaction.amount));
  const scope = {
    merchantId: transaction.merchantId,
    countryCode: transaction.countryCode,
    currency: transaction.currency,
  };
  return {
    statement: (guard, check) => Prisma.sql`
    WITH moved AS (UPDATE transactions SET ${setColumns(changed)} WHERE id = ${transaction.id}::uuid ${guard} RETURNING id),
    ${change.ctes}
    ${event ? Prisma.sql`, ${event.ctes}` : Prisma.empty}
    ${posting ? Prisma.sql`, ${postingCte('moved', scope, posting, transaction.id)}` : Prisma.empty}
    SELECT ${event ? Prisma.sql`(SELECT held FROM earlier)` : Prisma.sql`NULL::boolean`} AS held, ${posting ? postedCount : Prisma.sql`NULL::int AS "postedCount"`}${check}`,
    outcome: (row) => {
      if (posting && row?.postedCount !== 1)
        throw new Error(`transaction ${transaction.id}: its ${posting.name} posting was not written`);
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
export function eventDetail(
  patch: Omit<TransitionPatch, 'expiresAt' | 'pollAt'>,
  extra: Record<string, string | null> | undefined,
): Record<string, string | null> | null {
  const said: Record<string, string | null> = {};
  if (patch.providerState !== undefined) said.provider_state = patch.providerState;
  if (patch.providerTxnStatus !== undefined) said.provider_txn_status = patch.providerTxnStatus;
  if (patch.failureCode !== undefined) said.failure_code = patch.failureCode;
  if (patch.failureReason !== undefined) said.failure_reason = patch.failureReason;
  if (patch.providerTxId !== undefined) said.provider_tx_id = patch.providerTxId;
  const all = { ...said, ...extra };
  return Object.keys(all).length > 0 ? all : null;
}
