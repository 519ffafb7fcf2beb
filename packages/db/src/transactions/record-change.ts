import { randomUUID } from 'node:crypto';
import type { Tx } from '../client.js';
import { Prisma } from '../generated/prisma/client.js';
import type { OutboxJob, OutboxRow } from '../outbox.js';

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

/**
 * A state change's history row and the outbox rows of its jobs, in one statement: every cash-in
 * writes both at least twice, and each round trip is CPU on the hot path of the gateway and bridge.
 */
export async function recordChange(tx: Tx, history: HistoryRow, jobs: NewJob[]): Promise<OutboxRow[]> {
  const rows: OutboxRow[] = jobs.map(({ availableAt, ...job }) => ({ ...job, id: randomUUID(), availableAt: availableAt ?? history.createdAt, run: 0 }));
  const outbox = rows.length === 0 ? Prisma.empty : Prisma.sql`, jobs AS (
    INSERT INTO outbox (id, topic, payload, available_at) VALUES ${Prisma.join(rows.map((r) =>
      Prisma.sql`(${r.id}::uuid, ${r.topic}::text, ${JSON.stringify(r.payload)}::jsonb, ${r.availableAt}::timestamptz)`))})`;
  await tx.$executeRaw`
    WITH history AS (
      INSERT INTO transaction_events (transaction_id, from_status, to_status, cause, detail, created_at)
      VALUES (${history.transactionId}::uuid, ${history.fromStatus}::text, ${history.toStatus}::text, ${history.cause}::text,
              ${history.detail ? JSON.stringify(history.detail) : null}::jsonb, ${history.createdAt}::timestamptz))
    ${outbox}
    SELECT 1`;
  return rows;
}
