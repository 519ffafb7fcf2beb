import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { QUEUE_NAMES } from '../queue-names.js';

/**
 * One reconciliation of one operator account's business day (docs/reconciliation.md), run by the operator
 * bridge (it holds the adapters). Added every day by a job scheduler per operator account (`schedule`:
 * `date` null, meaning the UTC day before the job's own time), by the back-office's re-query of a case or
 * after a statement import (`manual`, with its day).
 */
export interface ReconciliationRunJob {
  country_code: string;
  operator: string;
  /** YYYY-MM-DD (UTC); null: the day before the job was created. */
  date: string | null;
  trigger: 'schedule' | 'manual';
}

const DAY_S = 24 * 3600;

export const reconciliationRuns = defineQueue({
  name: QUEUE_NAMES.reconciliationRuns,
  schema: Joi.object<ReconciliationRunJob, true>({
    country_code: Joi.string()
      .pattern(/^[A-Z]{2}$/)
      .required(),
    operator: Joi.string()
      .pattern(/^[A-Z][A-Z0-9_]{1,31}$/)
      .required(),
    date: Joi.string()
      .pattern(/^\d{4}-\d{2}-\d{2}$/)
      .allow(null)
      .required(),
    trigger: Joi.string().valid('schedule', 'manual').required(),
  }),
  // An operator that does not answer is tried again for about half an hour (5 attempts, 2, 4, 8 and 16 min apart);
  // the next day's run, a re-query or the admin command read the day again anyway. Runs stay a few weeks
  // for the Bull dashboard: a day's counts are in its return value.
  jobOptions: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 120_000 },
    removeOnComplete: { age: 30 * DAY_S, count: 1000 },
    removeOnFail: { age: 60 * DAY_S, count: 1000 },
  },
});
