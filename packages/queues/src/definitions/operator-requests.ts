import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from '../job-retention.js';
import { QUEUE_NAMES } from '../queue-names.js';

/** gateway -> operator-bridge: push the USSD request of a CREATED cash-in to the operator. */
export interface OperatorRequestJob {
  outbox_id: string;
  transaction_id: string;
}

export const operatorRequests = defineQueue({
  name: QUEUE_NAMES.operatorRequests,
  schema: Joi.object<OperatorRequestJob, true>({
    outbox_id: Joi.string().uuid().required(),
    transaction_id: Joi.string().uuid().required(),
  }),
  // The operator may be briefly down; after the last attempt the bridge fails the transaction.
  jobOptions: {
    attempts: 4,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: COMPLETED_JOBS_KEPT,
    removeOnFail: FAILED_JOBS_KEPT,
  },
});
