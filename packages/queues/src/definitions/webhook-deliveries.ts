import Joi from 'joi';
import { defineQueue } from '../queue-definition.js';
import { COMPLETED_JOBS_KEPT, FAILED_JOBS_KEPT } from '../job-retention.js';
import { QUEUE_NAMES } from '../queue-names.js';

/**
 * One delivery attempt of a webhook event (outbox id = event id). The retry schedule of the interface (docs/interface.md) is
 * not BullMQ's backoff: the dispatcher records each attempt and re-schedules through the outbox, so a
 * 24 h retry survives Redis losing its data. BullMQ's attempts only cover our own crashes.
 */
export interface WebhookDeliveryJob {
  outbox_id: string;
  event_id: string;
}

export const webhookDeliveries = defineQueue({
  name: QUEUE_NAMES.webhookDeliveries,
  schema: Joi.object<WebhookDeliveryJob, true>({
    outbox_id: Joi.string().uuid().required(),
    event_id: Joi.string().uuid().required(),
  }),
  jobOptions: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: COMPLETED_JOBS_KEPT,
    removeOnFail: FAILED_JOBS_KEPT,
  },
});
