export { WEBHOOK_TOPIC } from './record-webhook-event.js';
export { resendWebhookEvent } from './resend-webhook-event.js';
export { recordDeliveryOutcome, type DeliveryAttempt, type DeliveryOutcome, type DeliveryToRecord, type RecordedAs, type RecordedDelivery } from './record-delivery-outcome.js';
export { listProblemDeliveries, type DeliveryProblem } from './problem-deliveries.js';
export { claimDueDelivery, type ClaimedEvent } from './claim-delivery-attempt.js';
