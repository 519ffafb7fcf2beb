import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { QUEUE_NAMES } from '../queue-names.js';

/**
 * gateway payment page -> operator-bridge: the one-time code a customer typed for a cash-in whose
 * operator asked for one (customer action OTP). Not fed by the outbox, on purpose: a one-time code is
 * short-lived and a secret, so it is never written to PostgreSQL, and its job leaves Redis as soon as
 * it is done or given up (removeOnComplete and removeOnFail). The price: a job lost between the page
 * and the bridge is not re-published; the cash-in stays PENDING and the customer types a new code.
 */
export interface CustomerCodeJob {
  transaction_id: string;
  code: string;
}

export const customerCodes = defineQueue({
  name: QUEUE_NAMES.customerCodes,
  schema: Joi.object<CustomerCodeJob, true>({
    transaction_id: Joi.string().uuid().required(),
    code: Joi.string()
      .pattern(/^\d{4,8}$/)
      .required(),
  }),
  // Short: the customer is on the page waiting, and the code expires at the operator within minutes.
  jobOptions: {
    attempts: 3,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: true,
    removeOnFail: true,
  },
});
