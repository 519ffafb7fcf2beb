import type { DisbursementFailureReason, WireResult } from './wire.js';

/**
 * What the sandbox does with a push, decided by the customer number's last two digits
 * (decisions.md section 11), like a card sandbox's magic numbers.
 */
export type Scenario =
  /** Result after outcomeDelayMs ('soon') or lateConfirmDelayMs ('late'); provider_tx_id is generated on success. */
  | { kind: 'scripted'; after: 'soon' | 'late'; result: Omit<WireResult, 'provider_tx_id'> }
  /** The operator refuses the push outright: answered synchronously, no session. */
  | { kind: 'rejected'; result: Omit<WireResult, 'provider_tx_id'> }
  /** The operator never answers the push request (the caller's timeout fires first). */
  | { kind: 'hang' }
  /**
   * The operator is still processing the push when asked: no answer to the push request (as 'hang') and
   * "never saw it" to the status query, until lateConfirmDelayMs after the first request; then the push is
   * registered, the phone rings and the customer confirms after outcomeDelayMs. What a real operator's
   * backlog does: the payment is FAILED on our side by then, and its late success must be returned.
   */
  | { kind: 'late-register' }
  /** Accepted, then nothing ever happens: the transaction must expire on our side. */
  | { kind: 'never' }
  /** Accepted; a person confirms or declines on the virtual phone page. */
  | { kind: 'manual' };

const OK = { state: 'OK', txn_status: '200', failure_reason: null } as const;
const canceled = (failureReason: string) =>
  ({ state: 'canceled', txn_status: '54321', failure_reason: failureReason }) as const;

const BY_SUFFIX: Readonly<Record<string, Scenario>> = {
  '01': { kind: 'scripted', after: 'soon', result: OK },
  '02': { kind: 'scripted', after: 'soon', result: canceled('60019') },
  '03': { kind: 'scripted', after: 'soon', result: canceled('00017') },
  '04': { kind: 'scripted', after: 'soon', result: canceled('100004') },
  '05': { kind: 'scripted', after: 'soon', result: { state: 'canceled', txn_status: null, failure_reason: null } },
  '06': { kind: 'never' },
  '07': { kind: 'rejected', result: { state: 'KO', txn_status: '40001', failure_reason: null } },
  '08': { kind: 'hang' },
  '09': { kind: 'scripted', after: 'late', result: OK },
  // Cash-in as 01; its refunds are the ones that fail (refundsRejectedFor).
  '10': { kind: 'scripted', after: 'soon', result: OK },
  '13': { kind: 'late-register' },
};

export function scenarioFor(msisdn: string): Scenario {
  return BY_SUFFIX[msisdn.slice(-2)] ?? { kind: 'manual' };
}

/** Refunds of a cash-in from a number ending 10 are refused by the operator (REFUND_REJECTED). */
export function refundsRejectedFor(msisdn: string): boolean {
  return msisdn.slice(-2) === '10';
}

/**
 * Disbursements (cash-out) to a number ending 11 or 12 are refused, the beneficiary's side failing as a real
 * operator's would; any other number is paid. Cash-ins from these numbers are unaffected (a person answers them).
 */
const DISBURSEMENT_FAILURE_BY_SUFFIX: Readonly<Record<string, DisbursementFailureReason>> = {
  '11': 'BENEFICIARY_NOT_FOUND',
  '12': 'BENEFICIARY_LIMIT_EXCEEDED',
};

/** Why a disbursement to this beneficiary fails, or null when it is paid. */
export function disbursementFailureFor(msisdn: string): DisbursementFailureReason | null {
  return DISBURSEMENT_FAILURE_BY_SUFFIX[msisdn.slice(-2)] ?? null;
}

/** What a person's answer on the virtual phone produces. */
export const CONFIRMED: Omit<WireResult, 'provider_tx_id'> = OK;
export const DECLINED: Omit<WireResult, 'provider_tx_id'> = {
  state: 'canceled',
  txn_status: null,
  failure_reason: null,
};
/** A wrong secret code typed on the virtual phone: what a real operator answers (as the number ending 03). */
export const WRONG_CODE: Omit<WireResult, 'provider_tx_id'> = canceled('00017');

/** The code the sandbox treats as wrong; any other 4 digits confirm. */
export const WRONG_SECRET_CODE = '0000';

/**
 * One-time-code payments (a sandbox convention, decisions.md section 11): a push to a number whose national
 * number starts with 0701 (Côte d'Ivoire, +2250701...) is accepted with a customer action instead of
 * ringing the phone: the customer dials OTP_USSD to get a one-time code and types it on the merchant's
 * payment page, which sends it to POST /v1/payments/:ref/otp. Nothing is decided before the code arrives;
 * a right code then plays the number's last-two-digits scenario as usual, a wrong one cancels the payment.
 */
export const OTP_NUMBER_PREFIX = '2250701';
export const OTP_USSD = '#144*82#';
/** A one-time code as the operator takes it: 4 to 8 digits. */
export const ONE_TIME_CODE = /^\d{4,8}$/;
/** The one-time code the sandbox treats as wrong (canceled / 54321 / 00017); any other well-formed code is right. */
export const WRONG_ONE_TIME_CODE = '000000';

export function requiresOneTimeCode(msisdn: string): boolean {
  return msisdn.replace(/^\+/, '').startsWith(OTP_NUMBER_PREFIX);
}
