export { claimDueDelivery } from './claim-delivery-attempt.js';
export { type DeliveryProblem, listProblemDeliveries } from './problem-deliveries.js';
export { type DeliveryOutcome, recordDeliveryOutcome, type RecordedAs } from './record-delivery-outcome.js';
export { recordWebhookEvent, WEBHOOK_TOPIC, webhookEventStatement } from './record-webhook-event.js';
export { resendWebhookEvent } from './resend-webhook-event.js';
export { lockPaymentRow } from './lock-payment-row.js';
export {
  abandonedEventIds,
  findMerchantWebhookEvent,
  listMerchantWebhookEvents,
  type MerchantWebhookEventPage,
  type MerchantWebhookEventQuery,
  type MerchantWebhookEventRow,
} from './merchant-webhook-events.js';
