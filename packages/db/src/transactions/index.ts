export { createCashin, OPERATOR_REQUEST_TOPIC, type NewCashin, type CreateCashinResult } from './create-cashin.js';
export { createCashout, CASHOUT_REQUEST_TOPIC, type NewCashout, type CreateCashoutResult } from './create-cashout.js';
export { approveCashout, rejectCashout, type CashoutDecision } from './decide-cashout.js';
export {
  transition, lockForMove, moveLocked, moveIfUnchanged, type SeenTransaction, EXPIRY_TOPIC, type LockedTransaction, type TransitionRequest, type TransitionOutcome, type TransitionPatch,
} from './transition.js';
export { applyOperatorResult, applyOperatorResultIfUnchanged } from './apply-operator-result.js';
export { settleOperatorResult, type SettledResult } from './settle-operator-result.js';
export { moveNow, type MoveNowOptions } from './move-now.js';
export { moveToNextCheck, nextPendingCheck, pendingForCheck } from './pending-checks.js';
export { pendingCauseOf } from './pending-cause.js';
export { readTransaction } from './transaction-row.js';
export { searchTransactions, type TransactionSearch, type SearchPage } from './search-transactions.js';
export { transactionTimeline, type TimelineItem } from './transaction-timeline.js';
export { createExportPool, exportConnections, streamTransactionExport, type ExportConnections, type ExportPool, type ExportPoolOptions, type ExportedTransaction, type TransactionExportFilter } from '../export-transactions.js';
export { createRefund, REFUND_REQUEST_TOPIC, type NewRefund, type CreateRefundResult } from '../refunds/create-refund.js';
export { completeRefund, type RefundOutcome, type CompletedRefund } from '../refunds/complete-refund.js';
export { holdLateSuccess, completeLateSuccessReturn, LATE_SUCCESS_ORIGIN, type HeldLateSuccess } from '../refunds/late-success-return.js';
export { refundSnapshotOf } from '../refunds/refund-snapshot.js';
export { post, type LedgerScope } from '../ledger.js';
export { balancesOf, type BalanceRow } from '../balances.js';
export { verifyLedger, type LedgerReport, type LedgerProblem } from '../ledger-verification.js';
