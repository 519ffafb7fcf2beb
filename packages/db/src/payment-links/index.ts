export { listLinkPayments, type LinkPaymentRow, type LinkPaymentsPage } from './link-payments.js';
export { type PaymentLinkRecord } from './link-records.js';
export {
  deactivatePaymentLink,
  findLinkByIdempotencyKey,
  findMerchantPaymentLink,
  findPaymentLinkBySlug,
  insertPaymentLink,
  insertPaymentLinkOnce,
  listMerchantPaymentLinks,
  newLinkSlug,
  type LinkAudit,
  type LinkIdempotency,
  type NewPaymentLink,
  type PaymentLinkPage,
} from './payment-links.js';
