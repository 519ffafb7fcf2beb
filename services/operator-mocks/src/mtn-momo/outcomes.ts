import type { ResolvedMtnOptions } from './options.js';

/** What becomes of a request: a status now, then (optionally) a final status after a delay. */
export interface MtnOutcome {
  /** Refused at once: the POST itself answers this 500 code and nothing is created. */
  refuse?: string;
  initial?: 'PENDING' | 'CREATED';
  /** Absent: stays `initial` for ever (the customer never answers). */
  final?: { status: 'SUCCESSFUL' | 'FAILED'; reason?: string; afterMs: number };
}

const fails = (reason: string, afterMs: number): MtnOutcome => ({ final: { status: 'FAILED', reason, afterMs } });
const succeeds = (afterMs: number): MtnOutcome => ({ final: { status: 'SUCCESSFUL', afterMs } });

/**
 * A request to pay's outcome by payer number. MTN's sandbox numbers first (M2, M7; operators-reference.md follows the first
 * source where they disagree): 46733123450 FAILED INTERNAL_PROCESSING_ERROR, ...451 APPROVAL_REJECTED, ...452
 * EXPIRED, 56733123453 SUCCESSFUL, 46733123453 PENDING then FAILED EXPIRED (sent by callback) after
 * sandboxExpiryMs, 46733123454 CREATED then SUCCESSFUL after createdDelayMs. Then the project's convention on
 * the national number's last two digits: 01 success, 02 NOT_ENOUGH_FUNDS, 03 INTERNAL_PROCESSING_ERROR (MTN has
 * no wrong-PIN reason), 04 PAYER_LIMIT_REACHED, 05 APPROVAL_REJECTED, 06 never decided, 07 refused at once (500
 * PAYER_NOT_FOUND, a RequestToPay error code of M3), 09 success after lateConfirmDelayMs; others succeed.
 */
export function requestToPayOutcome(partyId: string, o: ResolvedMtnOptions): MtnOutcome {
  switch (partyId) {
    case '46733123450':
      return fails('INTERNAL_PROCESSING_ERROR', o.outcomeDelayMs);
    case '46733123451':
      return fails('APPROVAL_REJECTED', o.outcomeDelayMs);
    case '46733123452':
      return fails('EXPIRED', o.outcomeDelayMs);
    case '56733123453':
      return succeeds(o.outcomeDelayMs);
    case '46733123453':
      return fails('EXPIRED', o.sandboxExpiryMs);
    case '46733123454':
      return { initial: 'CREATED', final: { status: 'SUCCESSFUL', afterMs: o.createdDelayMs } };
  }
  switch (partyId.slice(-2)) {
    case '02':
      return fails('NOT_ENOUGH_FUNDS', o.outcomeDelayMs);
    case '03':
      return fails('INTERNAL_PROCESSING_ERROR', o.outcomeDelayMs);
    case '04':
      return fails('PAYER_LIMIT_REACHED', o.outcomeDelayMs);
    case '05':
      return fails('APPROVAL_REJECTED', o.outcomeDelayMs);
    case '06':
      return {};
    case '07':
      return { refuse: 'PAYER_NOT_FOUND' };
    case '09':
      return succeeds(o.lateConfirmDelayMs);
    default:
      return succeeds(o.outcomeDelayMs);
  }
}

/**
 * A transfer's (or refund's) outcome by payee number, decided after disbursementDelayMs (MTN answers 202 and decides
 * later, M5): 11 PAYEE_NOT_FOUND, 12 PAYEE_NOT_ALLOWED_TO_RECEIVE (M3, the simulator's 11/12), 02 NOT_ENOUGH_FUNDS
 * (our disbursement account), 06 never decided; others SUCCESSFUL.
 */
export function transferOutcome(partyId: string, o: ResolvedMtnOptions): MtnOutcome {
  switch (partyId.slice(-2)) {
    case '11':
      return fails('PAYEE_NOT_FOUND', o.disbursementDelayMs);
    case '12':
      return fails('PAYEE_NOT_ALLOWED_TO_RECEIVE', o.disbursementDelayMs);
    case '02':
      return fails('NOT_ENOUGH_FUNDS', o.disbursementDelayMs);
    case '06':
      return {};
    default:
      return succeeds(o.disbursementDelayMs);
  }
}
