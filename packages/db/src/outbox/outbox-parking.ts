import type { Db, Tx } from '../database/index.js';

export interface FailedRun {
  /** failed_runs after this one. */
  failedRuns: number;
  /** True when the row is parked: the relay no longer re-publishes it. */
  parked: boolean;
  /** True for the one call that parked it (count it, alert on it), false for every later report. */
  parkedNow: boolean;
}

/**
 * Counts one run of an outbox row's job that used up all its attempts (`failedJob`: the same key for
 * the same failed job, counted once however many relays report it), and parks the row when it reaches
 * `maxRuns`. Null when the row is done or unknown (a late report of a run that no longer matters).
 */
export async function recordFailedRun(
  db: Db | Tx,
  outboxId: string,
  failedJob: { key: string; reason: string },
  maxRuns: number,
  now = new Date(),
): Promise<FailedRun | null> {
  const [row] = await db.$queryRaw<{ failed_runs: number; parked: boolean; parked_now: boolean }[]>`
    WITH counted AS (
      UPDATE outbox o
         SET failed_runs = o.failed_runs + 1,
             last_error = left(${failedJob.reason}, 2000),
             last_failed_job = ${failedJob.key},
             parked_at = COALESCE(o.parked_at, CASE WHEN o.failed_runs + 1 >= ${maxRuns} THEN ${now}::timestamptz END)
        FROM outbox before
       WHERE o.id = ${outboxId}::uuid AND before.id = o.id
         AND o.completed_at IS NULL AND o.last_failed_job IS DISTINCT FROM ${failedJob.key}
       RETURNING o.failed_runs, o.parked_at IS NOT NULL AS parked, (before.parked_at IS NULL AND o.parked_at IS NOT NULL) AS parked_now)
    SELECT failed_runs, parked, parked_now FROM counted
    UNION ALL
    SELECT failed_runs, parked_at IS NOT NULL, false FROM outbox
     WHERE id = ${outboxId}::uuid AND completed_at IS NULL AND NOT EXISTS (SELECT 1 FROM counted)`;
  return row ? { failedRuns: row.failed_runs, parked: row.parked, parkedNow: row.parked_now } : null;
}

export interface ParkedJob {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
  failedRuns: number;
  lastError: string | null;
  parkedAt: Date;
  createdAt: Date;
}

/** Parked rows, newest first: what a person must look at. */
export async function listParkedJobs(db: Db, limit = 200): Promise<ParkedJob[]> {
  const rows = await db.outbox.findMany({
    where: { completedAt: null, parkedAt: { not: null } },
    orderBy: { parkedAt: 'desc' },
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id,
    topic: r.topic,
    payload: r.payload as Record<string, unknown>,
    failedRuns: r.failedRuns,
    lastError: r.lastError,
    parkedAt: r.parkedAt as Date,
    createdAt: r.createdAt,
  }));
}

/** How many rows are parked, per topic (the metric an SRE alerts on). */
export async function countParkedJobs(db: Db): Promise<Record<string, number>> {
  const rows = await db.$queryRaw<{ topic: string; n: bigint }[]>`
    SELECT topic, count(*) AS n FROM outbox WHERE completed_at IS NULL AND parked_at IS NOT NULL GROUP BY topic`;
  return Object.fromEntries(rows.map((r) => [r.topic, Number(r.n)]));
}

/**
 * A person says "run it again": the row is due now with a fresh count and a new job id (run + 1, so the
 * failed job kept in Redis for the dashboard does not block it). False when it was not parked.
 */
export async function unparkJob(tx: Tx, outboxId: string, now = new Date()): Promise<boolean> {
  const { count } = await tx.outbox.updateMany({
    where: { id: outboxId, completedAt: null, parkedAt: { not: null } },
    data: { parkedAt: null, failedRuns: 0, availableAt: now, run: { increment: 1 } },
  });
  return count === 1;
}
