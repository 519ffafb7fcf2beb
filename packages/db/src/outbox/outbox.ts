import { randomUUID } from 'node:crypto';
import { HELD_UNTIL, type OutboxJob, type PublishableOutboxRow } from '@mm/queues/outbox-row';
import type { Db, Tx } from '../database/index.js';
import { Prisma } from '../generated/prisma/client.js';

/** available_at of a row that waits to be released; the publisher skips such rows. */
export const HELD = HELD_UNTIL;

/** A row's job is typed by its topic: `{ topic: 'refund-requests', payload: { refund_id } }`. */
export type OutboxRow = PublishableOutboxRow;
export type { OutboxJob };

/**
 * A row read back from the database. Its payload is JSON of any shape there: typing it as its topic's
 * is an assertion, not a check, made here and nowhere else. Rows are written typed (insertOutbox,
 * recordChange), so only a row from before a schema change, or written by hand, can break it; the
 * producer's schema check when it is published is what catches that (@mm/queues OutboxPublisher).
 */
export function outboxRowOf(r: {
  id: string;
  topic: string;
  payload: unknown;
  availableAt: Date;
  run: number;
}): OutboxRow {
  const job = { topic: r.topic, payload: r.payload } as OutboxJob;
  return { ...job, id: r.id, availableAt: r.availableAt, run: r.run };
}

/** The select or RETURNING list that reads an outbox row back as outboxRowOf takes it. */
export const OUTBOX_ROW_COLUMNS = Prisma.sql`id::text AS id, topic, payload, available_at AS "availableAt", run`;

/** Writes one job; a payload that is not its topic's queue's does not compile. */
export async function insertOutbox(tx: Tx, row: OutboxJob & { id?: string; availableAt?: Date }): Promise<OutboxRow> {
  const { id = randomUUID(), availableAt = new Date(), ...job } = row;
  // A raw statement: it runs in a pg transaction too (runPgTransaction: a late success held in a capture).
  const [created] = await tx.$queryRaw<{ run: number }[]>`
    INSERT INTO outbox (id, topic, payload, available_at) VALUES (${id}::uuid, ${job.topic}, ${JSON.stringify(job.payload)}::jsonb, ${availableAt}::timestamptz)
    RETURNING run`;
  return { ...job, id, availableAt, run: created!.run };
}

/**
 * The UPDATE that marks a job's row done, once (a row done already keeps its time), and only if
 * `onlyIf` holds: a statement of its own (completeOutbox) or a CTE of the statement that did the job's
 * work, so that the work and its completion are one round trip.
 */
export function completeOutboxSql(id: string, at: Date, onlyIf: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`UPDATE outbox SET completed_at = ${at}::timestamptz WHERE id = ${id}::uuid AND completed_at IS NULL ${onlyIf}`;
}

/** Marks the job done; false when it was already done (a duplicate run). */
export async function completeOutbox(tx: Tx | Db, id: string): Promise<boolean> {
  // A raw statement: it runs in a pg transaction too (commitStep with rawStatements).
  const count = await tx.$executeRaw(completeOutboxSql(id, new Date()));
  return count === 1;
}

/** Schedules another run of the same row (a new job id), e.g. the next webhook attempt. */
export async function rescheduleOutbox(tx: Tx, id: string, availableAt: Date): Promise<OutboxRow> {
  // A raw statement, like the others here: usable in a pg transaction too (runPgTransaction).
  const [row] = await tx.$queryRaw<Parameters<typeof outboxRowOf>[0][]>`
    UPDATE outbox SET available_at = ${availableAt}::timestamptz, run = run + 1 WHERE id = ${id}::uuid RETURNING ${OUTBOX_ROW_COLUMNS}`;
  if (!row) throw new Error(`outbox row ${id} not found`);
  return outboxRowOf(row);
}

/** Rows that should have run by `before`, not done and not parked: the relay re-publishes them. */
export async function findOverdueOutbox(db: Db, topics: string[], before: Date, limit = 500): Promise<OutboxRow[]> {
  const rows = await db.outbox.findMany({
    where: { completedAt: null, parkedAt: null, topic: { in: topics }, availableAt: { lte: before } },
    orderBy: { availableAt: 'asc' },
    take: limit,
  });
  return rows.map(outboxRowOf);
}
