import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { QUEUE_NAMES } from '../queue-names.js';

/** Delayed until a PENDING cash-in's confirmation delay runs out; the expiry worker decides. */
export interface ExpiryCheckJob {
  outbox_id: string;
  transaction_id: string;
}

export const expiryChecks = defineQueue<ExpiryCheckJob>({
  name: QUEUE_NAMES.expiryChecks,
  fromOutbox: true,
  schema: Joi.object({ outbox_id: Joi.string().uuid().required(), transaction_id: Joi.string().uuid().required() }),
  // Retries cover an unreachable operator during the final status check.
  jobOptions: {
    attempts: 6,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 3600 },
  },
});
