export { listLinkPayments, type LinkPaymentRow, type LinkPaymentsPage } from './link-payments.js';
export { type PaymentLinkRecord } from './link-records.js';
export {
  deactivatePaymentLink,
  findMerchantPaymentLink,
  findPaymentLinkBySlug,
  insertPaymentLink,
  listMerchantPaymentLinks,
  newLinkSlug,
  type LinkAudit,
  type NewPaymentLink,
  type PaymentLinkPage,
} from './payment-links.js';
