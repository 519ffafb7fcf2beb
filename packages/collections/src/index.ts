/**
 * The collection service's use cases: what a merchant, a customer or a staff member triggers, each a
 * function of the dependencies it declares. Front ends (the gateway, the back-office) parse the request,
 * call one, and present its result.
 */
export { auditAction, type AuditContext } from './audit-context.js';
export type { ChangeOutcome } from './change-outcome.js';
export type { DbDeps, KeyDeps } from './deps.js';
export { invalidField } from './invalid-field.js';
export { type StrictSchema, uuidField, validate } from './validate-body.js';
export { parseStaffReason } from './staff-reason.js';
export { httpUrl } from './webhooks/http-url.js';
export { parseWebhookUrl, WEBHOOK_URL_CREDENTIALS_ERROR, WEBHOOK_URL_ERROR } from './merchants/merchant-fields.js';

export type { OperatorChoice, RouteOperator } from './orders/choose-operator.js';
export { operatorField, orderId } from './orders/order-fields.js';
export { routableAccounts } from './orders/routable-accounts.js';

export type { CashinBody } from './cashins/cashin-body.js';
export {
  initiateCashin,
  type CashinFaultPoints,
  type InitiateCashinDeps,
  type InitiateCashinResult,
  type OutageSignal,
} from './cashins/initiate-cashin.js';
export { storedAction } from './cashins/customer-action.js';
export {
  submitCustomerCode,
  type CodeIntake,
  type CustomerCodeOutcome,
  type SubmitCustomerCodeDeps,
} from './cashins/submit-customer-code.js';

export type { CashoutBody } from './cashouts/cashout-body.js';
export { cashoutSchema } from './cashouts/cashout-schema.js';
export { requestCashout, type RequestCashoutDeps } from './cashouts/request-cashout.js';
export {
  decideCashout,
  type CashoutVerdict,
  type DecideCashoutDeps,
  type DecideCashoutOutcome,
} from './cashouts/decide-cashout.js';

export type { RefundBody } from './refunds/refund-body.js';
export { idempotencyKeySchema, refundSchema } from './refunds/refund-schema.js';
export { requestRefund, type RequestRefundDeps } from './refunds/request-refund.js';
export { findMerchantRefund } from './refunds/find-merchant-refund.js';

export { createMerchantWithKey, type CreateMerchantOutcome } from './merchants/create-merchant.js';
export { changeMerchantStatus } from './merchants/change-merchant-status.js';
export { changeMerchantWebhookUrl, type ChangeWebhookUrlOutcome } from './merchants/change-merchant-webhook-url.js';

export { createMerchantApiKey } from './api-keys/create-api-key.js';
export {
  DEFAULT_ROTATION_GRACE_S,
  isRotationGrace,
  ROTATION_GRACE_S,
  rotateMerchantApiKey,
  type RotateOutcome,
  type RotationGraceS,
} from './api-keys/rotate-api-key.js';
export { revokeMerchantApiKey } from './api-keys/revoke-api-key.js';

export { changeSubsidiaryActive } from './subsidiaries/change-subsidiary-active.js';
export { changeStaffAccess, type ChangeStaffAccessOutcome } from './staff/change-staff-access.js';
export { resendWebhooks, type ResendOutcome, type ResendWebhooksDeps } from './webhooks/resend-webhooks.js';
export { sendTestWebhook, type TestWebhookOutcome } from './webhooks/send-test-webhook.js';
export { runParkedJobsAgain, type RunAgainOutcome } from './operations/run-parked-jobs-again.js';

export {
  importStatement,
  type ImportedDay,
  type ImportOutcome,
  type StatementFile,
} from './reconciliation/import-statement.js';
export {
  requeryReconciliationDay,
  type ReconciliationRunDeps,
  type ReconciliationRunQueue,
  type RequeryOutcome,
} from './reconciliation/requery-reconciliation-day.js';
export { resolveReconciliationCase, type ResolveCaseOutcome } from './reconciliation/resolve-reconciliation-case.js';

// The transaction export's document (GET /transactions/export and the portal's statements download).
export { csvCell, csvLine } from './exports/csv-cell.js';
export {
  csvLayout,
  EXPORT_MAX_DAYS,
  ExportBody,
  jsonLayout,
  type ExportLayout,
  type ExportMeta,
} from './exports/export-body.js';
export { EXPORT_COLUMNS, presentExportRow, type ExportRow } from './exports/export-row.js';
export { paymentMethod, providerState } from './exports/transaction-fields.js';

export type { PaymentLinkBody } from './payment-links/payment-link-body.js';
export { paymentLinkListSchema, paymentLinkSchema } from './payment-links/payment-link-schema.js';
export { createPaymentLink, type CreatePaymentLinkDeps } from './payment-links/create-payment-link.js';
export { linkAmountOf, payThroughLink, type LinkPaymentForm } from './payment-links/pay-through-link.js';
