import { countParkedJobs, recordFailedRun } from '@mm/db/outbox';
import { type Db } from '@mm/db';
import { Counter, Gauge, singleMetric, type Logger, type Registry } from '@mm/observability';
import type { FailedJob, InvalidRow, PublishableOutboxRow } from '@mm/queues';

export interface JobParkingDeps {
  db: Db;
  logger: Logger;
  metrics: Registry;
  /** OUTBOX_MAX_FAILED_RUNS. */
  maxRuns: number;
}

/**
 * The relay's answer to a row whose job failed for good: the run is counted on the row, and after
 * `maxRuns` runs the row is parked. The relay then stops re-publishing it, the failed job stays in
 * Redis (the Bull dashboard shows it with its error), the back-office lists it, and
 * mm_outbox_parked_jobs says so. Nothing spins silently: a job fails a bounded number of times.
 */
export function parkFailingJobs(deps: JobParkingDeps): {
  onFailedRun(row: PublishableOutboxRow, failed: FailedJob): Promise<boolean>;
  onInvalidPayload(invalid: InvalidRow): Promise<void>;
} {
  const parkedTotal = singleMetric(
    deps.metrics,
    'mm_jobs_parked_total',
    () =>
      new Counter({
        name: 'mm_jobs_parked_total',
        help: 'Jobs parked after failing OUTBOX_MAX_FAILED_RUNS runs for an unknown reason, by queue: each one waits for a person.',
        labelNames: ['queue'],
        registers: [deps.metrics],
      }),
  );
  singleMetric(
    deps.metrics,
    'mm_outbox_parked_jobs',
    () =>
      new Gauge({
        name: 'mm_outbox_parked_jobs',
        help: 'Outbox jobs parked now, by topic (read from PostgreSQL at scrape time; every worker reports the same numbers).',
        labelNames: ['topic'],
        registers: [deps.metrics],
        async collect() {
          const counts = await countParkedJobs(deps.db).catch(() => null);
          if (!counts) return;
          this.reset();
          for (const [topic, n] of Object.entries(counts)) this.set({ topic }, n);
        },
      }),
  );
  const onFailedRun = async (row: PublishableOutboxRow, failed: FailedJob): Promise<boolean> => {
    const run = await recordFailedRun(deps.db, row.id, failed, deps.maxRuns);
    if (!run) return false;
    if (!run.parked) {
      deps.logger.warn(
        { queue: row.topic, outbox_id: row.id, failedRuns: run.failedRuns, error: failed.reason },
        'job failed every attempt; running it again',
      );
      return false;
    }
    if (run.parkedNow) {
      parkedTotal.inc({ queue: row.topic });
      deps.logger.error(
        { queue: row.topic, outbox_id: row.id, failedRuns: run.failedRuns, error: failed.reason },
        'job parked after failing every run: a person must look at it',
      );
    }
    return true;
  };
  // A payload its queue refuses will never run as it is: parked at once, for a person to fix.
  const onInvalidPayload = async ({ row, reason }: InvalidRow): Promise<void> => {
    const run = await recordFailedRun(deps.db, row.id, { key: `invalid-payload@${row.run}`, reason }, 1);
    if (run?.parkedNow) {
      parkedTotal.inc({ queue: row.topic });
      deps.logger.error(
        { queue: row.topic, outbox_id: row.id, error: reason },
        'outbox row parked: its payload breaks its queue schema',
      );
    }
  };
  return { onFailedRun, onInvalidPayload };
}
