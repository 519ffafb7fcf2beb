import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from '../job-retention.js';
import { QUEUE_NAMES } from '../queue-names.js';

/**
 * Delayed checks of a PENDING cash-in with the operator. `poll`: before the confirmation delay, so a
 * lost callback cannot leave it pending until expiry; `expiry`: when the delay runs out, the last word.
 */
export interface ExpiryCheckJob {
  outbox_id: string;
  transaction_id: string;
  kind: 'poll' | 'expiry';
}

export const expiryChecks = defineQueue({
  name: QUEUE_NAMES.expiryChecks,
  schema: Joi.object<ExpiryCheckJob, true>({
    outbox_id: Joi.string().uuid().required(),
    transaction_id: Joi.string().uuid().required(),
    // Rows written before polls existed carry no kind: they are expiries.
    kind: Joi.string().valid('poll', 'expiry').default('expiry'),
  }),
  // Retries cover an unreachable operator during the final status check.
  jobOptions: {
    attempts: 6,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: COMPLETED_JOBS_KEPT,
    removeOnFail: FAILED_JOBS_KEPT,
  },
});
