import Joi from 'joi';
import type { FailureCode, OperatorResult } from '@mm/domain';
import type { DisbursementRequest, DisbursementResult, UssdPushRequest } from '../operator-adapter.js';

/**
 * Wave's Checkout and Payout wire format <-> our OperatorResult. Pure: every function returns null for
 * an answer outside the protocol and the client decides what that means. Field names and status values
 * from docs.wave.com/checkout and /payout and the 0xc007b/wave-api-client types; unknown fields allowed.
 */

export interface WaveSession {
  id: string;
  amount: string;
  currency: string;
  checkout_status: 'open' | 'complete' | 'expired';
  payment_status: 'processing' | 'cancelled' | 'succeeded';
  transaction_id?: string | null;
  client_reference?: string | null;
  last_payment_error?: { code: string; message?: string | null } | null;
  wave_launch_url: string;
}

export interface WavePayout {
  id: string;
  status: 'processing' | 'succeeded' | 'failed' | 'reversed';
  client_reference?: string | null;
  payout_error?: { error_code?: string; error_message?: string; code?: string; message?: string } | null;
}

export interface WaveEvent {
  id: string;
  type: string;
  data: WaveSession;
}

const optionalString = () => Joi.string().allow(null, '');
const sessionSchema = Joi.object({
  id: Joi.string().min(1).required(),
  amount: Joi.string().required(),
  currency: Joi.string().required(),
  checkout_status: Joi.string().valid('open', 'complete', 'expired').required(),
  payment_status: Joi.string().valid('processing', 'cancelled', 'succeeded').required(),
  transaction_id: optionalString(),
  client_reference: optionalString(),
  last_payment_error: Joi.object({ code: Joi.string().min(1).required(), message: optionalString() })
    .unknown(true)
    .allow(null),
  wave_launch_url: Joi.string().min(1).required(),
}).unknown(true);
const searchSchema = Joi.object({ result: Joi.array().items(sessionSchema).required() }).unknown(true);
const payoutSchema = Joi.object({
  id: Joi.string().min(1).required(),
  status: Joi.string().valid('processing', 'succeeded', 'failed', 'reversed').required(),
  client_reference: optionalString(),
  payout_error: Joi.object().unknown(true).allow(null),
}).unknown(true);
const payoutSearchSchema = Joi.object({ result: Joi.array().items(payoutSchema).required() }).unknown(true);
const eventSchema = Joi.object({
  id: Joi.string().min(1).required(),
  type: Joi.string().valid('checkout.session.completed', 'checkout.session.payment_failed').required(),
  data: sessionSchema.keys({ client_reference: Joi.string().min(1).required() }).required(),
}).unknown(true);
const errorSchema = Joi.object({ code: Joi.string().min(1).required() }).unknown(true);

function validated<T>(schema: Joi.Schema, data: unknown): T | null {
  const { value, error } = schema.validate(data, { convert: false });
  return error ? null : (value as T);
}

export const sessionOf = (data: unknown) => validated<WaveSession>(sessionSchema, data);
export const sessionsOf = (data: unknown) => validated<{ result: WaveSession[] }>(searchSchema, data)?.result ?? null;
export const payoutOf = (data: unknown) => validated<WavePayout>(payoutSchema, data);
export const payoutsOf = (data: unknown) =>
  validated<{ result: WavePayout[] }>(payoutSearchSchema, data)?.result ?? null;
export const eventOf = (data: unknown) => validated<WaveEvent>(eventSchema, data);
/** Wave's error body `{code, message, details}`: its kebab-case code, or null when the body is not one. */
export const errorCodeOf = (data: unknown) => validated<{ code: string }>(errorSchema, data)?.code ?? null;

/**
 * last_payment_error codes (docs.wave.com/checkout "payment errors", the client's ErrorCode enum) -> who
 * refused and our cause. The payer's own doing is 'canceled', Wave's refusal 'KO'. An unlisted code is
 * still a failure Wave reported: KO / UNKNOWN.
 */
export const PAYMENT_ERRORS: Record<string, { state: 'canceled' | 'KO'; failureCode: FailureCode }> = {
  'insufficient-funds': { state: 'canceled', failureCode: 'INSUFFICIENT_BALANCE' },
  'payer-mobile-mismatch': { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
  'blocked-account': { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
  'cross-border-payment-not-allowed': { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
  'customer-age-restricted': { state: 'KO', failureCode: 'OPERATOR_REJECTED' },
  'kyb-limits-exceeded': { state: 'KO', failureCode: 'THRESHOLD_REACHED' },
  'payment-failure': { state: 'KO', failureCode: 'UNKNOWN' },
};

const bounded = (s: string | null | undefined) => (s ? s.slice(0, 200) : null);

function failure(
  state: 'canceled' | 'KO',
  txnStatus: string,
  failureCode: FailureCode,
  reason: string | null,
): OperatorResult {
  return {
    providerState: state,
    providerTxnStatus: txnStatus,
    providerTxId: null,
    failureReason: bounded(reason),
    failureCode,
  };
}

/** Wave's amounts: strings of digits (docs.wave.com/checkout: "1000"). */
const PLAIN_AMOUNT = /^\d+(\.\d+)?$/;

/**
 * One session -> one result. A failed attempt leaves the session open (the customer may try again), so an
 * open session with a last_payment_error already reads as that failure: the client closes the session
 * before reporting it (see WaveOperatorAdapter.queryStatus).
 */
export function resultFromSession(s: WaveSession): OperatorResult | null {
  if (s.payment_status === 'succeeded') {
    // What Wave collected, compared with the cash-in before it is credited: a succeeded session without a plain amount is outside the protocol.
    if (s.checkout_status !== 'complete' || !s.transaction_id || !PLAIN_AMOUNT.test(s.amount)) return null;
    return {
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: s.transaction_id,
      failureReason: null,
      failureCode: null,
      reported: { amount: Number(s.amount), currency: s.currency },
    };
  }
  const error = s.last_payment_error;
  if (error) {
    const known = PAYMENT_ERRORS[error.code] ?? { state: 'KO', failureCode: 'UNKNOWN' };
    return failure(known.state, error.code, known.failureCode, error.message ?? error.code);
  }
  if (s.payment_status === 'cancelled')
    return failure('canceled', 'cancelled', 'CUSTOMER_DID_NOT_VALIDATE', 'payment cancelled');
  if (s.checkout_status === 'expired')
    return failure('canceled', 'expired', 'CUSTOMER_DID_NOT_VALIDATE', 'checkout session expired');
  return {
    providerState: 'PENDING',
    providerTxnStatus: s.checkout_status,
    providerTxId: null,
    failureReason: null,
    failureCode: null,
  };
}

/** The session a retried push reuses, or a status query reads: paid first, then still payable. */
export function pickSession(sessions: WaveSession[]): WaveSession | null {
  return (
    sessions.find((s) => s.payment_status === 'succeeded') ??
    sessions.find((s) => s.checkout_status === 'open') ??
    sessions.find((s) => s.checkout_status === 'complete') ??
    sessions.at(-1) ??
    null
  );
}

const e164 = (msisdn: string) => (msisdn.startsWith('+') ? msisdn : `+${msisdn}`);

/** error_url is our page too; the marker only tells the page the customer came back from a failure. */
function withMarker(url: string): string {
  const u = new URL(url);
  u.searchParams.set('wave', 'error');
  return u.toString();
}

export function toCheckoutBody(req: UssdPushRequest & { returnUrl: string }) {
  return {
    amount: String(req.amount),
    currency: req.currency,
    success_url: req.returnUrl,
    error_url: withMarker(req.returnUrl),
    client_reference: req.partnerReference,
    restrict_payer_mobile: e164(req.msisdn),
  };
}

export function toPayoutBody(req: DisbursementRequest) {
  return {
    currency: req.currency,
    receive_amount: String(req.amount),
    mobile: e164(req.msisdn),
    payment_reason: (req.reason ?? '').slice(0, 40),
    client_reference: req.partnerReference,
  };
}

/**
 * null while Wave has not decided (processing). payout_error is read in both spellings: {error_code,
 * error_message} (0xc007b/wave-api-client's types, the mock's) and {code, message} (Wave's other error objects).
 */
export function disbursementResultOf(p: WavePayout): DisbursementResult | null {
  if (p.status === 'succeeded') return { state: 'OK', providerTxId: p.id };
  if (p.status === 'processing') return null;
  const e = p.payout_error ?? {};
  const code = e.error_code ?? e.code ?? p.status;
  const message = e.error_message ?? e.message;
  return { state: 'FAILED', reason: (message ? `${code}: ${message}` : code).slice(0, 200) };
}
