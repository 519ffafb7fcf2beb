/**
 * The cash-out form, read into the body POST /v1/payments/cashout takes and checked by the API's own
 * schema (cashoutSchema, strict), then the use case's refusals in the user's language. The rules (the
 * number's country, the amount bounds, the balance, the operator, approval) are requestCashout's alone.
 */
import { createHash } from 'node:crypto';
import { cashoutSchema, validate, type CashoutBody } from '@mm/collections';
import { DomainError, ERROR_STATUS, isUuid } from '@mm/domain';
import { formField } from '@mm/web';
import type { Request } from 'express';
import type { CashoutsText } from '../i18n/cashouts.js';

/** What the form sent, to show it again with an error; `idempotencyKey` is the form's one-time key. */
export interface CashoutFormValues {
  idempotencyKey: string;
  beneficiary: string;
  amount: string;
  reason: string;
  operator: string;
}

export interface CashoutForm {
  body: CashoutBody;
  formKey: string;
}

export type ParsedCashoutForm = { ok: true; form: CashoutForm } | { ok: false; error: string };

export function cashoutFormValues(req: Request): CashoutFormValues {
  return {
    idempotencyKey: formField(req, 'idempotency_key'),
    beneficiary: formField(req, 'beneficiary_msisdn'),
    amount: formField(req, 'amount'),
    reason: formField(req, 'reason'),
    operator: formField(req, 'operator'),
  };
}

/**
 * The order id of a portal cash-out: the form's one-time key in the portal's namespace ("portal:"), as
 * a refund's Idempotency-Key is. Cash-outs are idempotent on merchant_order_id, so the same form sent
 * twice names the same order and can make one cash-out only.
 */
export const portalCashoutOrderId = (formKey: string) => `portal:${formKey}`;

/**
 * What stands for the signed request (transactions.request_signature_hash, unique): the digest of the
 * merchant and the form's key. The same form raced in twice is then refused by the database as the same
 * signed request sent twice through the API is (REQUEST_REPLAYED), and never taken for an API cash-out.
 */
export function portalCashoutSignatureHash(merchantId: string, formKey: string): string {
  return createHash('sha256').update(`merchant-portal cash-out form\n${merchantId}\n${formKey}`).digest('hex');
}

// Typed text: spaces people put in numbers and amounts ("+225 07 07", "10 000") are not part of them.
const compact = (typed: string) => typed.replace(/[\s\u202f\u00a0]/g, '');

export function parseCashoutForm(req: Request, m: CashoutsText): ParsedCashoutForm {
  const formKey = formField(req, 'idempotency_key');
  if (!isUuid(formKey)) return { ok: false, error: m.errForm };
  const values = cashoutFormValues(req);
  const typed = compact(values.amount);
  // The API's schema then checks the number it reads as (positive, whole, safe).
  if (typed !== '' && !/^\d+$/.test(typed)) return { ok: false, error: m.errAmount };
  const key = formKey.toLowerCase();
  const reason = values.reason.trim();
  const operator = values.operator.trim();
  try {
    const body = validate(cashoutSchema, {
      merchant_order_id: portalCashoutOrderId(key),
      beneficiary_msisdn: compact(values.beneficiary),
      ...(typed !== '' ? { amount: Number(typed) } : {}),
      ...(reason !== '' ? { reason } : {}),
      ...(operator !== '' ? { operator } : {}),
    });
    return { ok: true, form: { body, formKey: key } };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { ok: false, error: fieldError(err, m) };
  }
}

function fieldError(err: DomainError, m: CashoutsText): string {
  const fields = new Set(err.details?.map((d) => d.field));
  if (fields.has('amount')) return m.errAmount;
  if (fields.has('beneficiary_msisdn')) return m.errNumber;
  if (fields.has('reason')) return m.errReason;
  if (fields.has('operator')) return m.errOperator;
  return m.errForm;
}

/** A refusal of requestCashout as the page shows it, with the status the API answers it with. */
export function cashoutRefusal(
  err: DomainError,
  m: CashoutsText,
  limits: { min: number; max: number },
): { status: number; message: string } {
  const status = ERROR_STATUS[err.code];
  switch (err.code) {
    case 'VALIDATION_ERROR':
      return { status, message: fieldError(err, m) };
    case 'COUNTRY_NOT_SUPPORTED':
      return { status, message: m.errCountry };
    case 'AMOUNT_OUT_OF_RANGE':
      return {
        status,
        message: m.errAmountRange.replace('{min}', String(limits.min)).replace('{max}', String(limits.max)),
      };
    case 'INSUFFICIENT_BALANCE':
      return { status, message: m.errBalance };
    case 'OPERATOR_NOT_SUPPORTED':
      return { status, message: m.errOperatorNotSupported };
    case 'OPERATOR_UNAVAILABLE':
      return { status, message: m.errOperatorUnavailable };
    case 'DISBURSEMENT_NOT_CONFIGURED':
      return { status, message: m.errDisabled };
    // The portal sends no currency, and its order ids are its own: neither can come from its forms.
    case 'CURRENCY_MISMATCH':
    case 'DUPLICATE_ORDER_ID':
      return { status, message: m.errForm };
    default:
      throw err;
  }
}
