import Joi from 'joi';
import { failureCodeForCause, type OperatorResult } from '@mm/domain';
import { NOT_FOUND_AT_OPERATOR, type UssdPushRequest } from '../operator-adapter.js';

/**
 * OM WebPay's wire format <-> our OperatorResult. Pure; null for an answer outside the protocol.
 * Sources: Orange "OM WebPay Dev – Getting started" (init, transactionstatus, notif), docs.4pay.online
 * (status table), karibu-cap's Orange constants (FAILED = confirmed too late or wrong code, EXPIRED).
 */

export interface WebpayInitBody {
  merchant_key: string;
  currency: string;
  order_id: string;
  amount: number;
  return_url: string;
  cancel_url: string;
  notif_url: string;
  lang: string;
  reference: string;
}

export interface WebpayInitOptions {
  merchantKey: string;
  /** Overrides the payment's currency (the dev environment only takes "OUV"). */
  currency?: string;
  lang: string;
}

/** The customer comes back to the same page either way; the marker tells the page the customer cancelled. */
export function cancelUrlOf(returnUrl: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('orange', 'cancel');
  return url.toString();
}

export function toInitBody(req: UssdPushRequest & { returnUrl: string }, o: WebpayInitOptions): WebpayInitBody {
  return {
    merchant_key: o.merchantKey,
    currency: o.currency ?? req.currency,
    order_id: req.partnerReference,
    amount: req.amount,
    return_url: req.returnUrl,
    cancel_url: cancelUrlOf(req.returnUrl),
    notif_url: req.callbackUrl,
    lang: o.lang,
    reference: (req.motif ?? req.partnerReference).slice(0, 30),
  };
}

const initSchema = Joi.object({
  pay_token: Joi.string().min(1).required(),
  payment_url: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .required(),
  notif_token: Joi.string().allow(null, ''),
}).unknown(true);

export function initAnswerOf(status: number, data: unknown): { payToken: string; paymentUrl: string } | null {
  if (status !== 201) return null;
  const { value, error } = initSchema.validate(data, { convert: false });
  if (error) return null;
  const body = value as { pay_token: string; payment_url: string };
  return { payToken: body.pay_token, paymentUrl: body.payment_url };
}

const errorSchema = Joi.object({
  code: Joi.alternatives(Joi.number(), Joi.string()).required(),
  message: Joi.string().allow('').required(),
}).unknown(true);

/** Orange's error shape {code, message, description}, the only one a 404 "no such transaction" may take. */
export function isOrangeError(data: unknown): boolean {
  return !errorSchema.validate(data).error;
}

/** A 4xx saying the order_id was already used: the first init went through, the answer was lost. */
export function isDuplicateOrder(status: number, data: unknown): boolean {
  if ((status !== 400 && status !== 409) || !isOrangeError(data)) return false;
  const { message, description } = data as { message: string; description?: unknown };
  const text = `${message} ${String(description ?? '')}`;
  return /order_?id/i.test(text) && /(already|duplicat|exist)/i.test(text);
}

export type WebpayStatus = 'INITIATED' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'EXPIRED';

export interface WebpayStatusBody {
  status: WebpayStatus;
  order_id?: string;
  txnid?: string | null;
  /** Not in the documented body; read when present ("60019 :: Le solde ..."), as the mp API words it. */
  message?: string | null;
}

const statusSchema = Joi.object({
  status: Joi.string().valid('INITIATED', 'PENDING', 'SUCCESS', 'FAILED', 'EXPIRED').required(),
  order_id: Joi.string(),
  txnid: Joi.string().allow(null, ''),
  message: Joi.string().allow(null, ''),
}).unknown(true);

/** "60019 :: Le solde du compte du payeur est insuffisant" -> Orange's code and its wording. */
export function orangeCause(message: string | null | undefined): { code: string | null; text: string | null } {
  if (!message) return { code: null, text: null };
  const m = /^\s*(\d{2,6})\s*::\s*(.*)$/s.exec(message);
  return m ? { code: m[1]!, text: m[2]!.trim() || null } : { code: null, text: message };
}

/** The mapping table (one test per row in mapping.test.ts). */
export function resultOfWebpayStatus(body: WebpayStatusBody): OperatorResult {
  const none = { providerTxId: null, failureReason: null };
  switch (body.status) {
    case 'INITIATED':
    case 'PENDING':
      return { providerState: 'PENDING', providerTxnStatus: body.status, ...none };
    case 'SUCCESS':
      return { providerState: 'OK', providerTxnStatus: '200', providerTxId: body.txnid || null, failureReason: null };
    case 'EXPIRED':
      return {
        providerState: 'canceled',
        providerTxnStatus: 'EXPIRED',
        providerTxId: null,
        failureReason: 'confirmed too late (pay token expired)',
        failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
      };
    case 'FAILED': {
      const cause = orangeCause(body.message);
      const reason = (cause.text ?? body.message ?? null)?.slice(0, 200) ?? null;
      if (cause.code)
        return {
          providerState: 'canceled',
          providerTxnStatus: cause.code,
          providerTxId: null,
          failureReason: reason,
          failureCode: failureCodeForCause(cause.code),
        };
      return {
        providerState: 'canceled',
        providerTxnStatus: 'FAILED',
        providerTxId: null,
        failureReason: reason,
        failureCode: 'UNKNOWN',
      };
    }
  }
}

export function resultFromStatusResponse(status: number, data: unknown): (OperatorResult & { found: boolean }) | null {
  if (status === 404 && isOrangeError(data)) {
    return NOT_FOUND_AT_OPERATOR;
  }
  if (status !== 200) return null;
  const { value, error } = statusSchema.validate(data, { convert: false });
  return error ? null : { found: true, ...resultOfWebpayStatus(value as WebpayStatusBody) };
}
