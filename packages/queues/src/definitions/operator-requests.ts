import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { QUEUE_NAMES } from '../queue-names.js';

/** gateway -> operator-bridge: push the USSD request of a CREATED cash-in to the operator. */
export interface OperatorRequestJob {
  outbox_id: string;
  transaction_id: string;
}

export const operatorRequests = defineQueue({
  name: QUEUE_NAMES.operatorRequests,
  schema: Joi.object<OperatorRequestJob, true>({ outbox_id: Joi.string().uuid().required(), transaction_id: Joi.string().uuid().required() }),
  // The operator may be briefly down; after the last attempt the bridge fails the transaction.
  jobOptions: {
    attempts: 4,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 3600 },
  },
});
