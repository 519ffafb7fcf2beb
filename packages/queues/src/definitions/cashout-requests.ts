import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from '../job-retention.js';
import { QUEUE_NAMES } from '../queue-names.js';

/** gateway (or a back-office approval) -> operator-bridge: pay a cash-out out through the operator. */
export interface CashoutRequestJob {
  outbox_id: string;
  transaction_id: string;
}

export const cashoutRequests = defineQueue({
  name: QUEUE_NAMES.cashoutRequests,
  schema: Joi.object<CashoutRequestJob, true>({
    outbox_id: Joi.string().uuid().required(),
    transaction_id: Joi.string().uuid().required(),
  }),
  // An unreachable operator leaves the cash-out INITIATED (it may have been paid): the relay runs it
  // again after these attempts, with the same reference, which the operator dedupes.
  jobOptions: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: COMPLETED_JOBS_KEPT,
    removeOnFail: FAILED_JOBS_KEPT,
  },
});
