import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from '../job-retention.js';
import { QUEUE_NAMES } from '../queue-names.js';

/** gateway -> refund-worker: pay an accepted refund back through the operator. */
export interface RefundRequestJob {
  outbox_id: string;
  refund_id: string;
}

export const refundRequests = defineQueue({
  name: QUEUE_NAMES.refundRequests,
  schema: Joi.object<RefundRequestJob, true>({
    outbox_id: Joi.string().uuid().required(),
    refund_id: Joi.string().uuid().required(),
  }),
  // An unreachable operator leaves the refund PENDING (it may have been paid): the relay runs it again
  // after these attempts, with the same reference, which the operator dedupes.
  jobOptions: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: COMPLETED_JOBS_KEPT,
    removeOnFail: FAILED_JOBS_KEPT,
  },
});
