/**
 * The create form of a payment link, read into the body POST /v1/payment-links takes and checked by the
 * API's own schema (paymentLinkSchema, strict validate); createPaymentLink then applies the rules
 * (amount form and bounds, cap, expiry, country). Each refusal becomes a message on its field, in the
 * user's language: the rules are the use case's alone, the form only says them.
 */
import { paymentLinkSchema, validate, type PaymentLinkBody } from '@mm/collections';
import { randomUUID } from 'node:crypto';
import { DomainError, ERROR_STATUS, isUuid } from '@mm/domain';
import { formField } from '@mm/web';
import type { Request } from 'express';
import type { LinksText } from '../i18n/links.js';

/** What the form sent, to show it again with its errors. */
export interface LinkFormValues {
  description: string;
  country: string;
  amountKind: 'fixed' | 'range';
  amount: string;
  minAmount: string;
  maxAmount: string;
  reusable: boolean;
  maxPayments: string;
  expiresAt: string;
  redirectUrl: string;
  /** The form's one-time key (a UUID given with the empty form): one form sent twice makes one link. */
  formKey: string;
}

/** The form's fields, named as the API's body names them. */
export type LinkFormField =
  | 'description'
  | 'country_code'
  | 'amount'
  | 'min_amount'
  | 'max_amount'
  | 'max_payments'
  | 'expires_at'
  | 'redirect_url'
  | 'form';

/** The messages to show, one per field at most, in the form's order. */
export type LinkFormErrors = Partial<Record<LinkFormField, string>>;

export type ParsedLinkForm =
  { ok: true; body: PaymentLinkBody; formKey: string } | { ok: false; errors: LinkFormErrors };

/**
 * The Idempotency-Key of a link made from the form: its one-time key in the portal's namespace, as a
 * cash-out's order id is. A double click, or the form sent again, then makes the one link.
 */
export const portalLinkKey = (formKey: string) => `portal:${formKey.toLowerCase()}`;

/** An empty form, with a one-time key of its own. */
export const blankLinkForm = (): LinkFormValues => ({
  description: '',
  country: '',
  amountKind: 'fixed',
  amount: '',
  minAmount: '',
  maxAmount: '',
  reusable: false,
  maxPayments: '',
  expiresAt: '',
  redirectUrl: '',
  formKey: randomUUID(),
});

export function linkFormValues(req: Request): LinkFormValues {
  return {
    description: formField(req, 'description'),
    country: formField(req, 'country_code'),
    amountKind: formField(req, 'amount_kind') === 'range' ? 'range' : 'fixed',
    amount: formField(req, 'amount'),
    minAmount: formField(req, 'min_amount'),
    maxAmount: formField(req, 'max_amount'),
    reusable: formField(req, 'reusable') === '1',
    maxPayments: formField(req, 'max_payments'),
    expiresAt: formField(req, 'expires_at'),
    redirectUrl: formField(req, 'redirect_url'),
    formKey: formField(req, 'form_key'),
  };
}

// Typed text: spaces people put in amounts ("10 000") are not part of them.
const compact = (typed: string) => typed.replace(/[\s\u202f\u00a0]/g, '');

/**
 * A datetime-local field ("2026-12-31T23:59", seconds optional) read as UTC, as every time on the
 * dashboard is; anything else goes to the schema as typed (and is refused there).
 */
export function expiryOf(typed: string): string {
  const t = typed.trim();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(t)) return `${t}:00Z`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(t)) return `${t}Z`;
  return t;
}

/** Reads the form: its shape here, then the API's schema; null fields are left out as the API's optional ones. */
export function parseLinkForm(req: Request, m: LinksText): ParsedLinkForm {
  const v = linkFormValues(req);
  const kind = formField(req, 'amount_kind');
  if ((kind !== 'fixed' && kind !== 'range') || !isUuid(v.formKey)) return { ok: false, errors: { form: m.errForm } };
  const errors: LinkFormErrors = {};
  const whole = (typed: string, field: LinkFormField, message: string, required: boolean): number | undefined => {
    const text = compact(typed);
    if (text === '') {
      if (required) errors[field] = message;
      return undefined;
    }
    // The API's schema then checks the number it reads as (positive, whole, safe).
    if (!/^\d+$/.test(text)) errors[field] = message;
    return Number(text);
  };
  const amounts =
    kind === 'fixed'
      ? { amount: whole(v.amount, 'amount', m.errAmount, true) }
      : {
          min_amount: whole(v.minAmount, 'min_amount', m.errMin, true),
          max_amount: whole(v.maxAmount, 'max_amount', m.errMax, true),
        };
  const maxPayments = whole(v.maxPayments, 'max_payments', m.errMaxPayments, false);
  const description = v.description.trim();
  const redirect = v.redirectUrl.trim();
  const input: Record<string, unknown> = {
    description,
    country_code: v.country,
    ...Object.fromEntries(Object.entries(amounts).filter(([, a]) => a !== undefined)),
    reusable: v.reusable,
    ...(maxPayments !== undefined ? { max_payments: maxPayments } : {}),
    ...(v.expiresAt.trim() !== '' ? { expires_at: expiryOf(v.expiresAt) } : {}),
    ...(redirect !== '' ? { redirect_url: redirect } : {}),
  };
  try {
    const body = validate(paymentLinkSchema, input);
    return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, body, formKey: v.formKey };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    // The form's own reading comes first: its message says what was typed wrong.
    return { ok: false, errors: { ...fieldErrors(err, m, kind), ...errors } };
  }
}

const FIELD_MESSAGE: Record<Exclude<LinkFormField, 'form' | 'amount'>, keyof LinksText> = {
  description: 'errDescription',
  country_code: 'errCountry',
  min_amount: 'errMin',
  max_amount: 'errMax',
  max_payments: 'errMaxPayments',
  expires_at: 'errExpires',
  redirect_url: 'errRedirect',
};

/** A VALIDATION_ERROR's field issues as the form's messages; a field the form has not is the form's. */
function fieldErrors(err: DomainError, m: LinksText, kind: 'fixed' | 'range'): LinkFormErrors {
  const errors: LinkFormErrors = {};
  for (const d of err.details ?? []) {
    if (d.field === 'amount') {
      // "is required (or min_amount and max_amount)": the range's bounds when the customer types the amount.
      if (kind === 'range') errors.min_amount ??= m.errMin;
      else errors.amount ??= d.issue.startsWith('give either') ? m.errBoth : m.errAmount;
    } else if (Object.hasOwn(FIELD_MESSAGE, d.field)) {
      const field = d.field as keyof typeof FIELD_MESSAGE;
      errors[field] ??= m[FIELD_MESSAGE[field]];
    } else {
      errors.form ??= m.errForm;
    }
  }
  if (Object.keys(errors).length === 0) errors.form = m.errForm;
  return errors;
}

/** A refusal of createPaymentLink as the form shows it, with the status the API answers it with. */
export function linkRefusal(
  err: DomainError,
  m: LinksText,
  kind: 'fixed' | 'range',
  limits: { min: number; max: number },
): { status: number; errors: LinkFormErrors } {
  const status = ERROR_STATUS[err.code];
  switch (err.code) {
    case 'VALIDATION_ERROR':
      return { status, errors: fieldErrors(err, m, kind) };
    case 'COUNTRY_NOT_SUPPORTED':
      return { status, errors: { country_code: m.errCountry } };
    // This form made a link already, and was changed and sent again (the back button).
    case 'IDEMPOTENCY_KEY_REUSED':
      return { status, errors: { form: m.errFormSent } };
    case 'AMOUNT_OUT_OF_RANGE': {
      const message = m.errRange.replace('{min}', String(limits.min)).replace('{max}', String(limits.max));
      return { status, errors: kind === 'fixed' ? { amount: message } : { min_amount: message } };
    }
    default:
      throw err;
  }
}
