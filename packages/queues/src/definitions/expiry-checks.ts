import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from '../job-retention.js';
import { QUEUE_NAMES } from '../queue-names.js';

/**
 * Delayed checks of a PENDING cash-in with the operator. `poll`: before the confirmation delay, so a
 * lost callback cannot leave it pending until expiry; `expiry`: when the delay runs out, the last word.
 * A cash-in has one check scheduled at a time: a poll that finds it still PENDING moves its own row
 * to the next check (`next_polls`, then the expiry), so one that ends in seconds leaves one delayed
 * job behind, not one per check.
 */
export interface ExpiryCheckJob {
  outbox_id: string;
  transaction_id: string;
  kind: 'poll' | 'expiry';
  /**
   * A poll's later polls (ISO 8601), each before the expiry. Absent on rows written when every check
   * had a row of its own: such a poll is that check alone, and its expiry has a row already.
   */
  next_polls?: string[];
}

export const expiryChecks = defineQueue({
  name: QUEUE_NAMES.expiryChecks,
  schema: Joi.object<ExpiryCheckJob, true>({
    outbox_id: Joi.string().uuid().required(),
    transaction_id: Joi.string().uuid().required(),
    // Rows written before polls existed carry no kind: they are expiries.
    kind: Joi.string().valid('poll', 'expiry').default('expiry'),
    next_polls: Joi.array().items(Joi.string().isoDate()).max(20),
  }),
  // Retries cover an unreachable operator during the final status check.
  jobOptions: {
    attempts: 6,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: COMPLETED_JOBS_KEPT,
    removeOnFail: FAILED_JOBS_KEPT,
  },
});
