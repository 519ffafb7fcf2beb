import Joi from 'joi';
import { failureCodeForCause, type OperatorResult } from '@mm/domain';
import { NOT_FOUND_AT_OPERATOR, OperatorRefusedError, type UssdPushRequest } from '../operator-adapter.js';
import { orangeCause } from '../orange-webpay/mapping.js';

/**
 * Orange Money Cameroon "mp" API wire format <-> OperatorResult. Pure; null for answers outside the
 * protocol. Sources: karibu-cap/orange_money_apis_js (src/cash-in, src/utils: paths, headers, body,
 * statuses incl. SUCCESSFULL), karibu-cap's later TS library (417 with "60019 :: ..." and
 * inittxnstatus on a refused pay), y-note.cm (token, X-AUTH-TOKEN).
 */

export interface PayBody {
  subscriberMsisdn: string;
  channelUserMsisdn: string;
  pin: string;
  amount: string;
  orderId: string;
  description: string;
  notifUrl: string;
  payToken: string;
}

/** The customer's number as Orange Cameroon wants it: 9 digits, without 237. */
export function subscriberMsisdnOf(msisdn: string): string {
  const digits = msisdn.replace(/[^\d]/g, '');
  const national = digits.length === 12 && digits.startsWith('237') ? digits.slice(3) : digits;
  if (!/^6\d{8}$/.test(national))
    throw new OperatorRefusedError('push', 400, `not a Cameroonian mobile number: ${msisdn}`);
  return national;
}

export function toPayBody(
  req: UssdPushRequest,
  payToken: string,
  o: { channelUserMsisdn: string; pin: string },
): PayBody {
  return {
    subscriberMsisdn: subscriberMsisdnOf(req.msisdn),
    channelUserMsisdn: o.channelUserMsisdn,
    pin: o.pin,
    amount: String(req.amount),
    orderId: req.partnerReference,
    description: (req.motif ?? req.partnerReference).slice(0, 100),
    notifUrl: req.callbackUrl,
    payToken,
  };
}

const initSchema = Joi.object({
  data: Joi.object({ payToken: Joi.string().min(1).required() })
    .unknown(true)
    .required(),
}).unknown(true);

export function payTokenOfInit(status: number, data: unknown): string | null {
  if (status !== 200 && status !== 201) return null;
  const { value, error } = initSchema.validate(data, { convert: false });
  return error ? null : (value as { data: { payToken: string } }).data.payToken;
}

export type MpStatus = 'INITIATED' | 'PENDING' | 'SUCCESSFULL' | 'SUCCESS' | 'FAILED' | 'EXPIRED' | 'CANCELLED';

export interface MpData {
  payToken: string;
  status: MpStatus;
  txnid?: string | null;
  inittxnstatus?: string | null;
  inittxnmessage?: string | null;
  confirmtxnstatus?: string | null;
  confirmtxnmessage?: string | null;
}

const nullableText = () => Joi.string().allow(null, '');
const dataSchema = Joi.object({
  payToken: Joi.string().min(1).required(),
  status: Joi.string()
    .valid('INITIATED', 'PENDING', 'SUCCESSFULL', 'SUCCESS', 'FAILED', 'EXPIRED', 'CANCELLED')
    .required(),
  txnid: nullableText(),
  inittxnstatus: nullableText(),
  inittxnmessage: nullableText(),
  confirmtxnstatus: nullableText(),
  confirmtxnmessage: nullableText(),
}).unknown(true);
const envelopeSchema = Joi.object({ message: Joi.string().allow(''), data: dataSchema.required() }).unknown(true);

/** The `data` of a pay, status or notification answer; null outside the protocol. */
export function mpDataOf(data: unknown): (MpData & { message: string | null }) | null {
  const { value, error } = envelopeSchema.validate(data, { convert: false });
  if (error) return null;
  const body = value as { message?: string; data: MpData };
  return { ...body.data, message: body.message || null };
}

/** Orange's own code of a failure: the confirmation's when the customer got that far, else the init's. */
function causeOf(d: MpData & { message?: string | null }): { code: string | null; text: string | null } {
  const code = [d.confirmtxnstatus, d.inittxnstatus].find((c) => c && c !== '200') ?? null;
  if (code)
    return {
      code,
      text: (code === d.confirmtxnstatus ? d.confirmtxnmessage : d.inittxnmessage) || orangeCause(d.message).text,
    };
  // The envelope's message names a cause only in Orange's "<code> :: <text>" form; otherwise it is chatter.
  const envelope = orangeCause(d.message);
  return {
    code: envelope.code,
    text: d.confirmtxnmessage || d.inittxnmessage || (envelope.code ? envelope.text : null),
  };
}

/** The mapping table (one test per row in mapping.test.ts). */
export function resultOfMpData(d: MpData & { message?: string | null }): OperatorResult {
  switch (d.status) {
    case 'INITIATED':
    case 'PENDING':
      return { providerState: 'PENDING', providerTxnStatus: d.status, providerTxId: null, failureReason: null };
    case 'SUCCESSFULL':
    case 'SUCCESS':
      return { providerState: 'OK', providerTxnStatus: '200', providerTxId: d.txnid || null, failureReason: null };
    case 'CANCELLED':
      return {
        providerState: 'canceled',
        providerTxnStatus: 'CANCELLED',
        providerTxId: null,
        failureReason: 'cancelled by the customer',
        failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
      };
    case 'EXPIRED':
      return {
        providerState: 'canceled',
        providerTxnStatus: 'EXPIRED',
        providerTxId: null,
        failureReason: 'not confirmed before the pay token expired',
        failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
      };
    case 'FAILED': {
      const cause = causeOf(d);
      const reason = cause.text?.slice(0, 200) ?? null;
      // FAILED without a code is also how Orange fails the same number and amount again within its window:
      // a failure the customer may retry, nothing more precise is known.
      if (!cause.code)
        return {
          providerState: 'canceled',
          providerTxnStatus: 'FAILED',
          providerTxId: null,
          failureReason: reason,
          failureCode: 'UNKNOWN',
        };
      return {
        providerState: 'canceled',
        providerTxnStatus: cause.code,
        providerTxId: null,
        failureReason: reason,
        failureCode: failureCodeForCause(cause.code),
      };
    }
  }
}

/**
 * Orange mp's own "no such pay token". Every answer of the mp API is its envelope `{message, data}` (karibu-cap's
 * CashInInitializationResponse and ProviderCashInResponse; y-note.cm); the contract mock answers an unknown token
 * `404 {message: 'Transaction introuvable', data: null}`. No source shows Orange's wording of it, so the shape
 * decides, not the text: a 404 in that envelope with a message and no payment data. Anything else answering 404
 * is not Orange's word on the payment: the WSO2 gateway's `{fault: {code, message, description}}` (a path it does
 * not route: a wrong base URL or API version), a proxy's or load balancer's HTML page, an empty body. Read as
 * "never received", one of those would fail for good a cash-in whose prompt the customer may still approve (mp
 * has no refund API: the money would wait in suspense for a person); it is an unknown outcome instead.
 */
const notFoundSchema = Joi.object({
  message: Joi.string().min(1).required(),
  data: Joi.valid(null).required(),
  fault: Joi.forbidden(),
})
  .unknown(true)
  .required();

export function isMpNotFound(status: number, data: unknown): boolean {
  return status === 404 && !notFoundSchema.validate(data, { convert: false }).error;
}

/** A status answer as a result; null outside the protocol (a 404 that is not Orange's own included). */
export function resultFromStatusResponse(status: number, data: unknown): (OperatorResult & { found: boolean }) | null {
  if (isMpNotFound(status, data)) return NOT_FOUND_AT_OPERATOR;
  if (status !== 200) return null;
  const d = mpDataOf(data);
  return d && { found: true, ...resultOfMpData(d) };
}

/**
 * The amount Orange took, from a status answer's `data.amount` (a string of digits, as the pay sent it; a number
 * is read too); null when the answer has none or not a plain amount: the record then carries ours, unproven.
 */
export function reportedAmountOf(body: unknown): number | null {
  const amount = (body as { data?: { amount?: unknown } } | null)?.data?.amount;
  if (typeof amount === 'number') return Number.isFinite(amount) && amount >= 0 ? amount : null;
  return typeof amount === 'string' && /^\d+(\.\d+)?$/.test(amount) ? Number(amount) : null;
}
