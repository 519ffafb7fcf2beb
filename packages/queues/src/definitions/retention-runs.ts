import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { QUEUE_NAMES } from '../queue-names.js';

/**
 * One run of the retention job (the expiry worker's): deletes the operational rows past their
 * retention (pruneOperationalRows of @mm/db). Added by a job scheduler every RETENTION_INTERVAL_S
 * (`schedule`), or by hand from a script (`manual`); both do the same.
 */
export interface RetentionRunJob {
  trigger: 'schedule' | 'manual';
}

const WEEK_S = 7 * 24 * 3600;

export const retentionRuns = defineQueue({
  name: QUEUE_NAMES.retentionRuns,
  schema: Joi.object<RetentionRunJob, true>({ trigger: Joi.string().valid('schedule', 'manual').required() }),
  // A failed run is tried once more a minute later; past that the next scheduled run does the same work.
  // Its runs stay in Redis a while (a few hundred small jobs): the Bull dashboard shows each one's rows
  // deleted per table, and why one failed.
  jobOptions: {
    attempts: 2,
    backoff: { type: 'fixed', delay: 60_000 },
    removeOnComplete: { age: WEEK_S, count: 200 },
    removeOnFail: { age: 4 * WEEK_S, count: 200 },
  },
});
