export { type BalanceRow, balancesOf } from './balances.js';
export { verifyLedger } from './ledger-verification.js';
export { isOverdraft, post, postedCount, postingCte } from './ledger.js';
export {
  monthlyStatement,
  STATEMENT_ACCOUNT_KINDS,
  statementMonth,
  type StatementMonth,
  type StatementRow,
} from './monthly-statement.js';
