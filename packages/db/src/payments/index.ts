export { applyOperatorResult, applyOperatorResultIfUnchanged } from './moves/apply-operator-result.js';
export {
  cashinDaySql,
  cashinDaySummary,
  type CashinDayRow,
  type CashinDayTotals,
  cashinTotalsBy,
  countAwaitingCashouts,
  utcDayOf,
} from './day-summary.js';
export { createCashin, type NewCashin, OPERATOR_REQUEST_TOPIC } from './create-cashin.js';
export { createCashout, type NewCashout } from './create-cashout.js';
export { approveCashout, rejectCashout } from './decide-cashout.js';
export {
  createExportPool,
  exportConnections,
  type ExportConnections,
  type ExportedTransaction,
  type ExportPool,
  streamTransactionExport,
} from './export-transactions.js';
export {
  findRefundByIdempotencyKey,
  merchantPaymentDetail,
  type MerchantPaymentDetail,
  type MerchantPaymentSearch,
  type MerchantTimelineItem,
  type MerchantWebhookAttempt,
  type MerchantWebhookEvent,
  searchMerchantPayments,
} from './merchant-payments.js';
export { moveNow } from './moves/move-now.js';
export { pendingCauseOf } from './pending-cause.js';
export { EXPIRY_TOPIC, moveToNextCheck, nextPendingCheck, pendingForCheck } from './pending-checks.js';
export { storePreparedSession } from './prepared-session.js';
export { recordChange } from './moves/change-rows.js';
export { completeRefund } from './refunds/complete-refund.js';
export { createRefund, type NewRefund } from './refunds/create-refund.js';
export { type HeldLateSuccess, holdLateSuccess, LATE_SUCCESS_ORIGIN } from './refunds/late-success-return.js';
export { refundSnapshotOf } from './refunds/refund-snapshot.js';
export { type SearchPage, searchTransactions, type TransactionSearch } from './search-transactions.js';
export { type SettledResult, settleOperatorResult } from './moves/settle-operator-result.js';
export { readTransaction } from './transaction-row.js';
export { readTransactionStatus } from './transaction-status.js';
export { type TimelineItem, transactionTimeline } from './transaction-timeline.js';
export {
  type LockedTransaction,
  lockForMove,
  type SeenTransaction,
  transition,
  type TransitionPatch,
  type TransitionRequest,
} from './moves/transition.js';
export {
  ACTIVITY_DAYS,
  activityOf,
  activityWindow,
  type ActivityGroup,
  type DayActivity,
  merchantActivity,
  merchantActivityGroups,
  type MerchantActivity,
} from './merchant-activity.js';
