import { randomUUID } from 'node:crypto';
import { HELD_UNTIL } from '@mm/queues/outbox-row';
import type { Db, Tx } from './client.js';

/** available_at of a row that waits to be released; the publisher skips such rows. */
export const HELD = HELD_UNTIL;

export interface OutboxRow {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
  availableAt: Date;
  run: number;
}

function toRow(r: { id: string; topic: string; payload: unknown; availableAt: Date; run: number }): OutboxRow {
  return { id: r.id, topic: r.topic, payload: r.payload as Record<string, unknown>, availableAt: r.availableAt, run: r.run };
}

export async function insertOutbox(
  tx: Tx,
  row: { id?: string; topic: string; payload: Record<string, unknown>; availableAt?: Date },
): Promise<OutboxRow> {
  const created = await tx.outbox.create({
    data: { id: row.id ?? randomUUID(), topic: row.topic, payload: row.payload as object, availableAt: row.availableAt ?? new Date() },
  });
  return toRow(created);
}

/** Marks the job done; false when it was already done (a duplicate run). */
export async function completeOutbox(tx: Tx | Db, id: string): Promise<boolean> {
  const { count } = await tx.outbox.updateMany({ where: { id, completedAt: null }, data: { completedAt: new Date() } });
  return count === 1;
}

/** Schedules another run of the same row (a new job id), e.g. the next webhook attempt. */
export async function rescheduleOutbox(tx: Tx, id: string, availableAt: Date): Promise<OutboxRow> {
  return toRow(await tx.outbox.update({ where: { id }, data: { availableAt, run: { increment: 1 } } }));
}

export async function releaseOutbox(tx: Tx, id: string, availableAt = new Date()): Promise<OutboxRow> {
  return toRow(await tx.outbox.update({ where: { id }, data: { availableAt } }));
}

/** Rows that should have run by `before`, not done and not parked: the relay re-publishes them. */
export async function findOverdueOutbox(db: Db, topics: string[], before: Date, limit = 500): Promise<OutboxRow[]> {
  const rows = await db.outbox.findMany({
    where: { completedAt: null, parkedAt: null, topic: { in: topics }, availableAt: { lte: before } },
    orderBy: { availableAt: 'asc' },
    take: limit,
  });
  return rows.map(toRow);
}
