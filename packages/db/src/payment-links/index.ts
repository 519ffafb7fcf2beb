export { type PaymentLinkRecord } from './link-records.js';
export {
  deactivatePaymentLink,
  findMerchantPaymentLink,
  findPaymentLinkBySlug,
  insertPaymentLink,
  listMerchantPaymentLinks,
  newLinkSlug,
  type NewPaymentLink,
  type PaymentLinkPage,
} from './payment-links.js';
