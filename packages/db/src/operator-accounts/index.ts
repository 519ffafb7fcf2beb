export { listOperatorAccounts, findOperatorAccount, lockOperatorAccount, type OperatorAccountSummary } from './summary.js';
export { listAccountsForModeCheck, loadOperatorAccount, setOperatorAccountCredentials, sealCredentials, operatorAccountSecretBinding, type OperatorAccountWithCredentials } from './credentials.js';
export { upsertOperatorAccount, setOperatorAccountEnabled, setOperatorAccountPrefixes, markOperatorAccountDown, markOperatorAccountUp, normalisePrefixes, type OperatorAccountInput } from './changes.js';
export { changeOperatorAccount, operatorAccountTargetId, type OperatorAccountChange, type OperatorAccountFields, type OperatorAccountKey, type OperatorAuditContext, type OperatorChangeOutcome } from './audited-changes.js';
export { cashinOutcomesByAccount, type AccountCashinOutcomes } from './recent-cashins.js';
export {
  BREAKER_ACTOR, breakerDownReason, isBreakerDownReason, listAccountsDownByBreaker, markOperatorAccountDownByBreaker, markOperatorAccountUpByBreaker,
} from './breaker.js';
export { assertDeploymentMode } from './deployment-mode-check.js';
