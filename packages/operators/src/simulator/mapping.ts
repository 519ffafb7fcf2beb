import Joi from 'joi';
import type { OperatorResult, ProviderState } from '@mm/domain';
import {
  NOT_FOUND_AT_OPERATOR,
  type DisbursementRequest,
  type DisbursementResult,
  type RefundRequest,
  type RefundResult,
  type UssdPushAck,
  type UssdPushRequest,
} from '../operator-adapter.js';

/**
 * The simulator's wire format <-> our OperatorResult. Pure: no I/O, every function returns null for an
 * answer that does not follow the protocol, and the client decides what that means.
 */

export interface PushRequestBody {
  partner_reference: string;
  msisdn: string;
  amount: number;
  currency: string;
  motif: string | null;
  callback_url: string;
}

export interface RefundRequestBody {
  partner_reference: string;
  original_partner_reference: string;
  amount: number;
  currency: string;
}

export interface DisbursementRequestBody {
  partner_reference: string;
  msisdn: string;
  amount: number;
  currency: string;
  reason: string | null;
}

const STATES: readonly ProviderState[] = ['PENDING', 'OK', 'canceled', 'KO'];
const nullableString = () => Joi.string().allow(null).required();

// Unknown fields are allowed: an operator adding a field must not make us drop its results.
const resultFields = {
  state: Joi.string()
    .valid(...STATES)
    .required(),
  txn_status: nullableString(),
  provider_tx_id: nullableString(),
  failure_reason: nullableString(),
};
const statusSchema = Joi.object({ partner_reference: Joi.string().required(), ...resultFields }).unknown(true);
const callbackSchema = Joi.object({
  partner_reference: Joi.string().min(1).required(),
  session_id: nullableString(),
  ...resultFields,
}).unknown(true);
const acceptedSchema = Joi.object({
  session_id: Joi.string().min(1).required(),
  // A one-time-code payment (the simulator's 0701 numbers): absent for a plain USSD push.
  customer_action: Joi.object({
    type: Joi.string().valid('OTP').required(),
    ussd: Joi.string().min(1).max(64).required(),
  }).unknown(true),
}).unknown(true);
const rejectedSchema = Joi.object({
  state: Joi.string().valid('KO').required(),
  txn_status: Joi.string().allow(null).default(null),
}).unknown(true);

const refundOkSchema = Joi.object({
  state: Joi.string().valid('OK').required(),
  refund_id: Joi.string().min(1).required(),
}).unknown(true);
// Refunds and disbursements fail the same way: 200, state FAILED, the operator's reason.
const failedSchema = Joi.object({
  state: Joi.string().valid('FAILED').required(),
  reason: Joi.string().min(1).required(),
}).unknown(true);
const disbursementOkSchema = Joi.object({
  state: Joi.string().valid('OK').required(),
  disbursement_id: Joi.string().min(1).required(),
}).unknown(true);
const errorSchema = (code: string) => Joi.object({ error: Joi.string().valid(code).required() }).unknown(true);
const unknownTransactionSchema = errorSchema('unknown_transaction');
const notRefundableSchema = errorSchema('not_refundable');

interface WireResult {
  state: ProviderState;
  txn_status: string | null;
  provider_tx_id: string | null;
  failure_reason: string | null;
}

function validated<T>(schema: Joi.ObjectSchema, data: unknown): T | null {
  const { value, error } = schema.validate(data, { convert: false });
  return error ? null : (value as T);
}

function resultOf(wire: WireResult): OperatorResult {
  return {
    providerState: wire.state,
    providerTxnStatus: wire.txn_status,
    providerTxId: wire.provider_tx_id,
    failureReason: wire.failure_reason,
  };
}

export function toPushBody(req: UssdPushRequest): PushRequestBody {
  return {
    partner_reference: req.partnerReference,
    msisdn: req.msisdn,
    amount: req.amount,
    currency: req.currency,
    motif: req.motif,
    callback_url: req.callbackUrl,
  };
}

/**
 * 201 = push accepted (a session exists; with customer_action OTP when the customer must type a one-time
 * code on the payment page), 200 with state KO = refused outright.
 */
export function ackFromPushResponse(status: number, data: unknown): UssdPushAck | null {
  if (status === 201) {
    const body = validated<{ session_id: string; customer_action?: { type: 'OTP'; ussd: string } }>(
      acceptedSchema,
      data,
    );
    if (!body) return null;
    return body.customer_action
      ? {
          accepted: true,
          providerSessionId: body.session_id,
          customerAction: { type: 'OTP', ussd: body.customer_action.ussd },
        }
      : { accepted: true, providerSessionId: body.session_id };
  }
  if (status === 200) {
    const body = validated<{ txn_status: string | null }>(rejectedSchema, data);
    return body && { accepted: false, providerState: 'KO', providerTxnStatus: body.txn_status };
  }
  return null;
}

/** 404 = the operator never registered the reference: nothing happened, which reads as still pending. */
export function resultFromStatusResponse(status: number, data: unknown): (OperatorResult & { found: boolean }) | null {
  if (status === 404) {
    return NOT_FOUND_AT_OPERATOR;
  }
  if (status !== 200) return null;
  const body = validated<WireResult>(statusSchema, data);
  return body && { found: true, ...resultOf(body) };
}

export function resultFromCallback(
  data: unknown,
): (OperatorResult & { partnerReference: string; providerSessionId: string | null }) | null {
  const body = validated<WireResult & { partner_reference: string; session_id: string | null }>(callbackSchema, data);
  return body && { partnerReference: body.partner_reference, providerSessionId: body.session_id, ...resultOf(body) };
}

export function toRefundBody(req: RefundRequest): RefundRequestBody {
  return {
    partner_reference: req.partnerReference,
    original_partner_reference: req.originalPartnerReference,
    amount: req.amount,
    currency: req.currency,
  };
}

/**
 * 200 carries the refund's result (OK with the operator's refund id, or FAILED with its reason); 404
 * unknown_transaction and 409 not_refundable are failures too. A 404/409 without that error code (a missing
 * route, a proxy) is not the protocol: null, like any other answer outside it.
 */
export function refundResultFromResponse(status: number, data: unknown): RefundResult | null {
  if (status === 200) {
    const ok = validated<{ refund_id: string }>(refundOkSchema, data);
    if (ok) return { state: 'OK', providerRefundId: ok.refund_id };
    const failed = validated<{ reason: string }>(failedSchema, data);
    return failed && { state: 'FAILED', reason: failed.reason };
  }
  if (status === 404 && validated(unknownTransactionSchema, data))
    return { state: 'FAILED', reason: 'UNKNOWN_TRANSACTION' };
  if (status === 409 && validated(notRefundableSchema, data)) return { state: 'FAILED', reason: 'NOT_REFUNDABLE' };
  return null;
}

export function toDisbursementBody(req: DisbursementRequest): DisbursementRequestBody {
  return {
    partner_reference: req.partnerReference,
    msisdn: req.msisdn,
    amount: req.amount,
    currency: req.currency,
    reason: req.reason,
  };
}

/**
 * Only a 200 carries a disbursement's result: OK with the operator's disbursement id, or FAILED with its reason
 * (passed on as is, so a reason the operator adds later still reads as a failure). Anything else is null.
 */
export function disbursementResultFromResponse(status: number, data: unknown): DisbursementResult | null {
  if (status !== 200) return null;
  const ok = validated<{ disbursement_id: string }>(disbursementOkSchema, data);
  if (ok) return { state: 'OK', providerTxId: ok.disbursement_id };
  const failed = validated<{ reason: string }>(failedSchema, data);
  return failed && { state: 'FAILED', reason: failed.reason };
}
