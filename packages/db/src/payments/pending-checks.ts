import { QUEUE_NAMES } from '@mm/queues/names';
import type { OutboxPayload } from '@mm/queues/outbox-row';
import type { Db, Tx } from '../database/index.js';
import { Prisma, type Transaction } from '../generated/prisma/client.js';
import { completeOutboxSql, OUTBOX_ROW_COLUMNS, outboxRowOf, type OutboxRow } from '../outbox/index.js';
import { rawQuery } from '../database/index.js';
import type { NewJob } from './moves/change-rows.js';
import { transactionColumns } from './transaction-row.js';

export const EXPIRY_TOPIC = QUEUE_NAMES.expiryChecks;

type CheckPayload = OutboxPayload<typeof EXPIRY_TOPIC>;

/**
 * The one check a cash-in gets when it becomes PENDING: its first status poll (carrying the later
 * ones), or the expiry when no poll comes before it. The checks after it are scheduled by the check
 * before them, only while the cash-in is still PENDING (nextPendingCheck): most cash-ins end within
 * seconds, and each delayed job they leave is a Redis write, a worker wake-up and a run later on.
 */
export function firstPendingCheck(transactionId: string, pollAt: Date[], expiresAt: Date): NewJob {
  const polls = pollAt.filter((d) => d < expiresAt).sort((a, b) => a.getTime() - b.getTime());
  const [first, ...later] = polls;
  if (!first)
    return { topic: EXPIRY_TOPIC, payload: { transaction_id: transactionId, kind: 'expiry' }, availableAt: expiresAt };
  return {
    topic: EXPIRY_TOPIC,
    payload: { transaction_id: transactionId, kind: 'poll', next_polls: later.map((d) => d.toISOString()) },
    availableAt: first,
  };
}

/**
 * What follows a poll that left the cash-in PENDING: the next poll, else the expiry at `expiresAt`.
 * Null after the expiry, and for a poll of a row from before checks were chained (its expiry has a row).
 */
export function nextPendingCheck(
  current: CheckPayload,
  expiresAt: Date,
): { payload: CheckPayload; availableAt: Date } | null {
  if (current.kind !== 'poll' || current.next_polls === undefined) return null;
  const [next, ...later] = current.next_polls;
  const base = { transaction_id: current.transaction_id };
  return next === undefined
    ? { payload: { ...base, kind: 'expiry' }, availableAt: expiresAt }
    : { payload: { ...base, kind: 'poll', next_polls: later }, availableAt: new Date(next) };
}

/**
 * Moves a check's outbox row on to the next check (a new run: a new job id), only if the row still
 * holds the check that ran: a job run twice (stalled, re-published) finds the row moved on by the
 * first run and schedules nothing, so a cash-in never has two chains of checks. Null when it had.
 */
export async function moveToNextCheck(
  tx: Tx,
  outboxId: string,
  current: CheckPayload,
  next: { payload: CheckPayload; availableAt: Date },
): Promise<OutboxRow | null> {
  const [row] = await tx.$queryRaw<Parameters<typeof outboxRowOf>[0][]>`
    UPDATE outbox SET payload = ${JSON.stringify(next.payload)}::jsonb, available_at = ${next.availableAt}::timestamptz, run = run + 1
     WHERE id = ${outboxId}::uuid AND completed_at IS NULL AND parked_at IS NULL
       AND payload->>'kind' = ${current.kind} AND payload->'next_polls' = ${JSON.stringify(current.next_polls ?? null)}::jsonb
    RETURNING ${OUTBOX_ROW_COLUMNS}`;
  return row ? outboxRowOf(row) : null;
}

/**
 * The cash-in a check is about, when it is still PENDING and the check has work to do. Otherwise (it
 * ended, usually seconds after its push, long before its first poll; or it is unknown) the check's
 * outbox row is marked done in the same statement and null is returned: the usual run of a check is
 * one round trip.
 */
export async function pendingForCheck(db: Db, transactionId: string, outboxId: string): Promise<Transaction | null> {
  const [row] = await rawQuery<Transaction>(
    db,
    Prisma.sql`
    WITH t AS (SELECT ${transactionColumns('t')} FROM transactions t WHERE t.id = ${transactionId}::uuid),
    done AS (${completeOutboxSql(outboxId, new Date(), Prisma.sql`AND NOT EXISTS (SELECT 1 FROM t WHERE t.status = 'PENDING')`)})
    -- * is t's own column list (transactionColumns), not the table's: a migration cannot change it.
    SELECT * FROM t WHERE t.status = 'PENDING'`,
  );
  return row ?? null;
}
