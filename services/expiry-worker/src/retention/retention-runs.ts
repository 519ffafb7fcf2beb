import { pruneOperationalRows, TABLE_RETENTION, type PrunedTable, type RetentionPolicy } from '@mm/db/outbox';
import { type Db } from '@mm/db';
import { Counter, Gauge, singleMetric, type Logger, type Registry } from '@mm/observability';
import type { JobHandler, RetentionRunJob } from '@mm/queues';

export interface RetentionDeps {
  db: Db;
  logger: Logger;
  metrics: Registry;
  policy: RetentionPolicy;
  now?: () => Date;
}

/**
 * One run of the retention job: the operational rows past their retention deleted in batches
 * (pruneOperationalRows, which never touches a money or audit table). A run that fails half-way has
 * deleted whole batches only; the next run goes on from there.
 */
export function retentionRunsHandler(deps: RetentionDeps): JobHandler<RetentionRunJob> {
  const deleted = singleMetric(
    deps.metrics,
    'mm_retention_deleted_rows_total',
    () =>
      new Counter({
        name: 'mm_retention_deleted_rows_total',
        help: 'Rows deleted by the retention job, by table (only operational tables: outbox, webhook_attempts).',
        labelNames: ['table'],
        registers: [deps.metrics],
      }),
  );
  // Every pruned table reported from the start, at 0: a rate over a series that does not exist yet is no rate.
  for (const [table, policy] of Object.entries(TABLE_RETENTION)) if (policy === 'pruned') deleted.inc({ table }, 0);
  const lastSuccess = singleMetric(
    deps.metrics,
    'mm_retention_last_success_seconds',
    () =>
      new Gauge({
        name: 'mm_retention_last_success_seconds',
        help: 'Unix time of the last retention run that finished (alert when it is far behind RETENTION_INTERVAL_S).',
        registers: [deps.metrics],
      }),
  );
  return async (payload, job) => {
    const started = performance.now();
    const counted = (table: PrunedTable, n: number) => deleted.inc({ table }, n);
    const total = await pruneOperationalRows(deps.db, deps.policy, deps.now?.() ?? new Date(), counted);
    lastSuccess.set(Date.now() / 1000);
    const ms = Math.round(performance.now() - started);
    // The Bull dashboard shows a job's log: what each run deleted.
    await job.log(JSON.stringify({ deleted: total, ms }));
    deps.logger.info({ trigger: payload.trigger, deleted: total, ms }, 'retention run done');
  };
}
