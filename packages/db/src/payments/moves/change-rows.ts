import { randomUUID } from 'node:crypto';
import type { Tx } from '../../database/index.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { OutboxJob, OutboxRow } from '../../outbox/index.js';

export interface HistoryRow {
  transactionId: string;
  fromStatus: string | null;
  toStatus: string;
  cause: string;
  detail?: Record<string, string | null> | null;
  createdAt: Date;
}

/** A job and when it is due (default: with the change); its payload is its topic's queue's. */
export type NewJob = OutboxJob & { availableAt?: Date };

/** The `history` (and `jobs`) common table expressions of a change, and the outbox rows they write. */
export interface ChangeStatement {
  ctes: Prisma.Sql;
  outbox: OutboxRow[];
}

/**
 * A state change's history row and the outbox rows of its jobs as CTEs, for a statement that also
 * does the change itself (transition, a new cash-in): every cash-in writes both at least three times,
 * and each round trip is CPU on the hot path of the gateway and bridge.
 */
export function changeStatement(history: HistoryRow, jobs: NewJob[]): ChangeStatement {
  const rows = newOutboxRows(jobs, history.createdAt);
  const outbox = rows.length === 0 ? Prisma.empty : Prisma.sql`, jobs AS (${outboxInsert(rows)})`;
  const ctes = Prisma.sql`${historyCte({ ...history, transactionId: Prisma.sql`${history.transactionId}::uuid`, fromStatus: Prisma.sql`${history.fromStatus}::text` })}
    ${outbox}`;
  return { ctes, outbox: rows };
}

/**
 * The `history` CTE: the one place a payment's history row (transaction_events) is written, by every move
 * and by a payment's creation. Its id and source status are SQL, so a statement can take them from the row
 * it moves (`from`: the CTE it reads them from, which also decides whether a row is written at all).
 */
export function historyCte(
  row: Omit<HistoryRow, 'transactionId' | 'fromStatus'> & { transactionId: Prisma.Sql; fromStatus: Prisma.Sql },
  from: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  return Prisma.sql`history AS (
      INSERT INTO transaction_events (transaction_id, from_status, to_status, cause, detail, created_at)
      SELECT ${row.transactionId}, ${row.fromStatus}, ${row.toStatus}::text, ${row.cause}::text,
             ${row.detail ? JSON.stringify(row.detail) : null}::jsonb, ${row.createdAt}::timestamptz
      ${from})`;
}

/** The outbox rows of some jobs, each with its id (its BullMQ job id) and when it is due (default: `at`). */
export function newOutboxRows(jobs: NewJob[], at: Date): OutboxRow[] {
  return jobs.map(({ availableAt, ...job }) => ({ ...job, id: randomUUID(), availableAt: availableAt ?? at, run: 0 }));
}

/** `INSERT INTO outbox … SELECT … FROM (VALUES …)` of these rows, only `where` holds when given (a CTE's condition). */
export function outboxInsert(rows: OutboxRow[], where: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`INSERT INTO outbox (id, topic, payload, available_at)
    SELECT v.id, v.topic, v.payload, v.available_at FROM (VALUES ${Prisma.join(
      rows.map(
        (r) =>
          Prisma.sql`(${r.id}::uuid, ${r.topic}::text, ${JSON.stringify(r.payload)}::jsonb, ${r.availableAt}::timestamptz)`,
      ),
    )}) AS v(id, topic, payload, available_at)
    ${where}`;
}

/** The history row and outbox rows of a change, on their own in one statement. */
export async function recordChange(tx: Tx, history: HistoryRow, jobs: NewJob[]): Promise<OutboxRow[]> {
  const change = changeStatement(history, jobs);
  await tx.$executeRaw`WITH ${change.ctes} SELECT 1`;
  return change.outbox;
}
