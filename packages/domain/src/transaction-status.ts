export const TRANSACTION_STATUSES = [
  'CREATED', 'INITIATED', 'PENDING', 'SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED', 'AWAITING_APPROVAL',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/**
 * Every move the state machine allows (decisions 4), as target -> allowed sources.
 * SUCCESS/FAILED are reachable from INITIATED because an operator result can overtake the push
 * acknowledgement; EXPIRED -> SUCCESS is the late confirmation (the money was taken).
 */
const ALLOWED_SOURCES: Record<TransactionStatus, readonly TransactionStatus[]> = {
  CREATED: [],
  AWAITING_APPROVAL: [],
  INITIATED: ['CREATED'],
  PENDING: ['INITIATED'],
  SUCCESS: ['INITIATED', 'PENDING', 'EXPIRED'],
  FAILED: ['CREATED', 'INITIATED', 'PENDING', 'AWAITING_APPROVAL'],
  EXPIRED: ['PENDING'],
  REVERSED: ['SUCCESS'],
};

export function allowedSources(to: TransactionStatus): readonly TransactionStatus[] {
  return ALLOWED_SOURCES[to];
}

export function isAllowedTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return ALLOWED_SOURCES[to].includes(from);
}

/** Statuses the merchant is notified of by webhook (the spec's "terminal" list). */
export const NOTIFIED_STATUSES: readonly TransactionStatus[] = ['SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED'];

/** Not yet decided: counted in pending_balance. */
export const IN_FLIGHT_STATUSES: readonly TransactionStatus[] = ['CREATED', 'INITIATED', 'PENDING'];

export function isInFlight(status: TransactionStatus): boolean {
  return IN_FLIGHT_STATUSES.includes(status);
}
