export {
  changeOperatorAccount,
  type OperatorAccountChange,
  type OperatorAccountFields,
  type OperatorAccountKey,
  operatorAccountTargetId,
  type OperatorAuditContext,
} from './audited-changes.js';
export {
  listAccountsDownByBreaker,
  markOperatorAccountDownByBreaker,
  markOperatorAccountUpByBreaker,
} from './breaker.js';
export {
  markOperatorAccountDown,
  markOperatorAccountUp,
  setOperatorAccountEnabled,
  upsertOperatorAccount,
} from './changes.js';
export { loadOperatorAccount, setOperatorAccountCredentials } from './credentials.js';
export { assertDeploymentMode } from './deployment-mode-check.js';
export { type AccountCashinOutcomes, cashinOutcomesByAccount } from './recent-cashins.js';
export { findOperatorAccount, listOperatorAccounts, type OperatorAccountSummary } from './summary.js';
