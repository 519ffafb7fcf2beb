export const TRANSACTION_STATUSES = [
  'CREATED',
  'INITIATED',
  'PENDING',
  'SUCCESS',
  'FAILED',
  'EXPIRED',
  'REVERSED',
  'AWAITING_APPROVAL',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TRANSACTION_TYPES = ['CASHIN', 'CASHOUT'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

type Machine = Record<TransactionStatus, readonly TransactionStatus[]>;

/**
 * Every move a cash-in may make (decisions 4), as target -> allowed sources.
 * SUCCESS/FAILED are reachable from INITIATED because an operator result can overtake the push
 * acknowledgement; EXPIRED -> SUCCESS is the late confirmation (the money was taken).
 */
const CASHIN: Machine = {
  CREATED: [],
  AWAITING_APPROVAL: [],
  INITIATED: ['CREATED'],
  PENDING: ['INITIATED'],
  SUCCESS: ['INITIATED', 'PENDING', 'EXPIRED'],
  FAILED: ['CREATED', 'INITIATED', 'PENDING'],
  EXPIRED: ['PENDING'],
  REVERSED: ['SUCCESS'],
};

/**
 * Every move a cash-out may make (decisions 7). It is born CREATED, or AWAITING_APPROVAL at or above
 * the threshold; an approval sends it (INITIATED), a rejection fails it. The operator answers a
 * disbursement synchronously, so there is no PENDING, no expiry and no late success.
 */
const CASHOUT: Machine = {
  CREATED: [],
  AWAITING_APPROVAL: [],
  INITIATED: ['CREATED', 'AWAITING_APPROVAL'],
  PENDING: [],
  SUCCESS: ['INITIATED'],
  FAILED: ['CREATED', 'AWAITING_APPROVAL', 'INITIATED'],
  EXPIRED: [],
  REVERSED: [],
};

const MACHINES: Record<TransactionType, Machine> = { CASHIN, CASHOUT };

export function allowedSources(to: TransactionStatus, type: TransactionType = 'CASHIN'): readonly TransactionStatus[] {
  return MACHINES[type][to];
}

export function isAllowedTransition(
  from: TransactionStatus,
  to: TransactionStatus,
  type: TransactionType = 'CASHIN',
): boolean {
  return MACHINES[type][to].includes(from);
}

/** Statuses the merchant is notified of by webhook (the "terminal" list of docs/interface.md). */
export const NOTIFIED_STATUSES: readonly TransactionStatus[] = ['SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED'];

/** Not yet decided: counted in pending_balance. */
export const IN_FLIGHT_STATUSES: readonly TransactionStatus[] = ['CREATED', 'INITIATED', 'PENDING'];

export function isInFlight(status: TransactionStatus): boolean {
  return IN_FLIGHT_STATUSES.includes(status);
}
