export { type BalanceRow, balancesOf } from './balances.js';
export { verifyLedger } from './ledger-verification.js';
export { isOverdraft, post, postedCount, postingCte } from './ledger.js';
