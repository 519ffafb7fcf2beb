import type { Job } from 'bullmq';
import type { Db, Tx } from '@mm/db';
import type { DaySummary } from '@mm/db/reconciliation';
import type { SettledResult } from '@mm/db/payments';
import { Counter, singleMetric, type Logger, type Registry } from '@mm/observability';
import type { OperatorAdapter, OperatorAdapters } from '@mm/operators';
import { isFinalAttempt, type AfterCommit, type JobHandler, type ReconciliationRunJob } from '@mm/queues';
import { reconcileDay } from '@mm/reconciliation';
import { commitStep } from '@mm/worker-runtime';

export interface ReconciliationRunsDeps {
  db: Db;
  afterCommit: AfterCommit;
  logger: Logger;
  metrics: Registry;
  /** The bridge's operator directory: the adapter of the account reconciled. */
  adapters: OperatorAdapters<Pick<OperatorAdapter, 'listRecords' | 'recordOf' | 'queryStatus'>>;
  /** Counts late successes whose return to the customer a run started (decisions 13), as the callbacks do. */
  onLateSuccessHeld?(): void;
  /**
   * Operators whose `failed` runs are reported at 0 from the start (the enabled accounts'): an alert on the
   * increase of a counter sees no increase in a series whose first sample is already 1.
   */
  operators?: readonly string[];
}

/** How a run ended: clean (no case open for the day), open_cases, retried (an attempt failed, another comes), failed (the last one did). */
export type ReconciliationRunOutcome = 'clean' | 'open_cases' | 'retried' | 'failed';

/** mm_reconciliation_runs_total{operator, outcome}. */
export function reconciliationRunsCounter(registry: Registry): Counter<'operator' | 'outcome'> {
  return singleMetric(
    registry,
    'mm_reconciliation_runs_total',
    () =>
      new Counter({
        name: 'mm_reconciliation_runs_total',
        help: "Reconciliation runs of an operator account's day by the bridge, by operator and outcome: clean (no case open), open_cases (differences wait for a person), retried (an attempt failed; tried again), failed (its last attempt failed).",
        labelNames: ['operator', 'outcome'],
        registers: [registry],
      }),
  );
}

/**
 * When a job was due: a job scheduler's occurrence (BullMQ names its jobs `repeat:<scheduler>:<ms>` and sets
 * their timestamp when it creates them, a day before they are due), else the job's own timestamp (a job
 * added by hand). Retries keep it, so every attempt reconciles the same day.
 */
export function dueTime(job: Pick<Job, 'id' | 'timestamp' | 'repeatJobKey'>): number {
  const occurrence = job.repeatJobKey && job.id ? /^repeat:.+:(\d+)$/.exec(job.id)?.[1] : undefined;
  return occurrence ? Number(occurrence) : job.timestamp;
}

/** The UTC day (YYYY-MM-DD) before the instant `ms`. */
export function dayBefore(ms: number): string {
  const day = new Date(ms);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

/**
 * reconciliation-runs consumer: one operator account's business day reconciled (reconcileDay of
 * @mm/reconciliation) through the account's adapter, the day before the job was due when it names none.
 * A late success the operator's status confirms is applied as a callback's would be, its jobs (the
 * merchant's webhook, the customer's refund) published as soon as it commits. The day's summary is the
 * job's return value: the Bull dashboard shows it. An error (the operator unreachable) fails the attempt:
 * retried with the queue's backoff; the next day's run, a re-query or the admin command read it again anyway.
 */
export function reconciliationRunsHandler(deps: ReconciliationRunsDeps): JobHandler<ReconciliationRunJob, DaySummary> {
  const runs = reconciliationRunsCounter(deps.metrics);
  for (const operator of deps.operators ?? []) runs.inc({ operator, outcome: 'failed' }, 0);
  const commit = async (step: (tx: Tx) => Promise<SettledResult | null>): Promise<SettledResult | null> => {
    const settled = await commitStep(deps, step);
    if (settled && !settled.moved) deps.onLateSuccessHeld?.();
    return settled;
  };
  return async (payload, job) => {
    const account = { countryCode: payload.country_code, operator: payload.operator };
    const date = payload.date ?? dayBefore(dueTime(job));
    const context = { country_code: account.countryCode, operator: account.operator, date, trigger: payload.trigger };
    let summary: DaySummary;
    try {
      const adapter = await deps.adapters.adapterFor(account);
      summary = await reconcileDay(
        {
          db: deps.db,
          adapter,
          commit,
          onError: (err, about) =>
            deps.logger.warn(
              { err, ...context, ...about },
              'reconciliation: a late success could not be applied; left as a case',
            ),
        },
        account,
        date,
      );
    } catch (err) {
      runs.inc({ operator: account.operator, outcome: isFinalAttempt(job) ? 'failed' : 'retried' });
      throw err;
    }
    runs.inc({ operator: account.operator, outcome: summary.open_cases > 0 ? 'open_cases' : 'clean' });
    const counts = Object.fromEntries(
      Object.entries(summary.by_category)
        .filter(([, t]) => t.count > 0)
        .map(([c, t]) => [c, t.count]),
    );
    const line = {
      ...context,
      matched: summary.matched,
      counts,
      open_cases: summary.open_cases,
      resolved_automatically: summary.resolved_automatically,
      sources: summary.sources,
    };
    if (summary.open_cases > 0)
      deps.logger.warn(line, 'reconciliation: differences wait for a person (back-office, reconciliation cases)');
    else deps.logger.info(line, 'reconciliation: day reconciled');
    return summary;
  };
}
