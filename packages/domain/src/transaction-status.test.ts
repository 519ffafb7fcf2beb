import {
  allowedSources,
  IN_FLIGHT_STATUSES,
  isAllowedTransition,
  isInFlight,
  NOTIFIED_STATUSES,
  TRANSACTION_STATUSES,
  type TransactionStatus,
} from './transaction-status.js';

/**
 * decisions.md section 4, written out independently of the implementation's table:
 * CREATED -> INITIATED -> PENDING -> SUCCESS | FAILED | EXPIRED; a result can overtake the push
 * acknowledgement (INITIATED -> SUCCESS | FAILED, and FAILED for a push that never got out);
 * EXPIRED -> SUCCESS is the late confirmation; SUCCESS -> REVERSED once fully refunded.
 * A cash-in never waits for approval.
 */
const ALLOWED: ReadonlyArray<[TransactionStatus, TransactionStatus]> = [
  ['CREATED', 'INITIATED'],
  ['CREATED', 'FAILED'],
  ['INITIATED', 'PENDING'],
  ['INITIATED', 'SUCCESS'],
  ['INITIATED', 'FAILED'],
  ['PENDING', 'SUCCESS'],
  ['PENDING', 'FAILED'],
  ['PENDING', 'EXPIRED'],
  ['EXPIRED', 'SUCCESS'],
  ['SUCCESS', 'REVERSED'],
];
const key = (from: TransactionStatus, to: TransactionStatus) => `${from}->${to}`;
const allowedKeys = new Set(ALLOWED.map(([f, t]) => key(f, t)));
const allPairs = TRANSACTION_STATUSES.flatMap((from) => TRANSACTION_STATUSES.map((to) => [from, to] as const));

describe('transaction state machine (decisions 4)', () => {
  it.each(ALLOWED)('allows %s -> %s', (from, to) => {
    expect(isAllowedTransition(from, to)).toBe(true);
    expect(allowedSources(to)).toContain(from);
  });

  it('allows exactly the moves of decisions 4 and no other', () => {
    const actual = allPairs.filter(([f, t]) => isAllowedTransition(f, t)).map(([f, t]) => key(f, t));
    expect(new Set(actual)).toEqual(allowedKeys);
  });

  it.each(TRANSACTION_STATUSES.map((to) => [to] as const))('FAILED is final: FAILED -> %s is refused', (to) => {
    expect(isAllowedTransition('FAILED', to)).toBe(false);
  });

  it.each(TRANSACTION_STATUSES.map((to) => [to] as const))('REVERSED is final: REVERSED -> %s is refused', (to) => {
    expect(isAllowedTransition('REVERSED', to)).toBe(false);
  });

  it('leaves EXPIRED only for SUCCESS (the late confirmation)', () => {
    expect(TRANSACTION_STATUSES.filter((to) => isAllowedTransition('EXPIRED', to))).toEqual(['SUCCESS']);
    expect(isAllowedTransition('EXPIRED', 'FAILED')).toBe(false);
  });

  it('moves SUCCESS only to REVERSED', () => {
    expect(TRANSACTION_STATUSES.filter((to) => isAllowedTransition('SUCCESS', to))).toEqual(['REVERSED']);
    expect(isAllowedTransition('SUCCESS', 'FAILED')).toBe(false);
    expect(isAllowedTransition('SUCCESS', 'EXPIRED')).toBe(false);
  });

  it.each([
    ['CREATED', 'PENDING'],
    ['CREATED', 'SUCCESS'],
    ['CREATED', 'EXPIRED'],
    ['INITIATED', 'EXPIRED'],
    ['PENDING', 'INITIATED'],
    ['PENDING', 'CREATED'],
    ['PENDING', 'REVERSED'],
    ['INITIATED', 'CREATED'],
  ] as const)('refuses %s -> %s (skipping or going back)', (from, to) => {
    expect(isAllowedTransition(from, to)).toBe(false);
  });

  it('never allows a status to move to itself (a duplicate result is a no-op)', () => {
    for (const s of TRANSACTION_STATUSES) expect(isAllowedTransition(s, s)).toBe(false);
  });

  it('nothing moves back to CREATED: it is the initial state only', () => {
    expect(allowedSources('CREATED')).toEqual([]);
  });

  it('notifies merchants of the terminal statuses and counts CREATED/INITIATED/PENDING as in flight', () => {
    expect([...NOTIFIED_STATUSES].sort()).toEqual(['EXPIRED', 'FAILED', 'REVERSED', 'SUCCESS']);
    expect([...IN_FLIGHT_STATUSES].sort()).toEqual(['CREATED', 'INITIATED', 'PENDING']);
    for (const s of TRANSACTION_STATUSES) expect(isInFlight(s)).toBe(IN_FLIGHT_STATUSES.includes(s));
    // A status is never both waiting for a decision and notified as decided.
    expect(NOTIFIED_STATUSES.filter((s) => isInFlight(s))).toEqual([]);
  });
});

/**
 * decisions 7: a cash-out is sent at once (CREATED) or waits for an approver (AWAITING_APPROVAL);
 * approved -> INITIATED, rejected -> FAILED; the operator's synchronous answer -> SUCCESS | FAILED.
 */
const CASHOUT_ALLOWED: ReadonlyArray<[TransactionStatus, TransactionStatus]> = [
  ['CREATED', 'INITIATED'],
  ['CREATED', 'FAILED'],
  ['AWAITING_APPROVAL', 'INITIATED'],
  ['AWAITING_APPROVAL', 'FAILED'],
  ['INITIATED', 'SUCCESS'],
  ['INITIATED', 'FAILED'],
];

describe('cash-out state machine (decisions 7)', () => {
  it('allows exactly the cash-out moves and no other', () => {
    const actual = allPairs.filter(([f, t]) => isAllowedTransition(f, t, 'CASHOUT')).map(([f, t]) => key(f, t));
    expect(new Set(actual)).toEqual(new Set(CASHOUT_ALLOWED.map(([f, t]) => key(f, t))));
  });

  it('an approval cannot be repeated and a rejection cannot be approved', () => {
    expect(isAllowedTransition('INITIATED', 'INITIATED', 'CASHOUT')).toBe(false);
    expect(isAllowedTransition('FAILED', 'INITIATED', 'CASHOUT')).toBe(false);
    expect(isAllowedTransition('SUCCESS', 'INITIATED', 'CASHOUT')).toBe(false);
  });

  it('a cash-in cannot be put in approval nor approved', () => {
    expect(allowedSources('INITIATED')).not.toContain('AWAITING_APPROVAL');
    expect(TRANSACTION_STATUSES.filter((to) => isAllowedTransition('AWAITING_APPROVAL', to))).toEqual([]);
  });
});
