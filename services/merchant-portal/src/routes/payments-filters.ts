/**
 * The payment search, read from the query string (a GET form: a search is a link to share). Every value
 * is checked before any query runs; a bad one gives a message in the user's language (400) instead of a
 * database error or a silently ignored filter showing the wrong rows. The merchant is never a filter:
 * it is the signed-in user's (searchMerchantPayments).
 */
import type { MerchantPaymentSearch } from '@mm/db/payments';
import { isUuid, OPERATORS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@mm/domain';
import { type Cursor, DAY_MS, decodeCursor, msisdnFilter, textField, utcDay } from '@mm/web';
import type { PaymentsText } from '../i18n/payments.js';

export const PAYMENT_FILTER_KEYS = [
  'status',
  'type',
  'operator',
  'country',
  'from',
  'to',
  'amount_min',
  'amount_max',
  'number',
  'order_id',
  'link',
] as const;

export type PaymentFilterForm = Record<(typeof PAYMENT_FILTER_KEYS)[number], string>;

export interface ParsedPaymentFilters {
  form: PaymentFilterForm;
  search: MerchantPaymentSearch;
  after: Cursor | undefined;
  /** In the user's language; when there is any, no query runs. */
  errors: string[];
}

// Whole francs (XOF and XAF have no minor unit); 15 digits keep it far inside a bigint column.
const WHOLE = /^\d{1,15}$/;

const oneOf = (list: readonly string[], value: string) => list.includes(value);

export function parsePaymentFilters(query: unknown, m: PaymentsText): ParsedPaymentFilters {
  const errors: string[] = [];
  const form = {} as PaymentFilterForm;
  let repeated = false;
  for (const key of PAYMENT_FILTER_KEYS) {
    const value = textField(query, key);
    if (value === null) repeated = true;
    form[key] = value ?? '';
  }
  if (repeated) errors.push(m.errRepeated);
  const search: MerchantPaymentSearch = {};

  if (form.status) {
    if (oneOf(TRANSACTION_STATUSES, form.status)) search.status = form.status;
    else errors.push(m.errStatus);
  }
  if (form.type) {
    if (oneOf(TRANSACTION_TYPES, form.type)) search.type = form.type;
    else errors.push(m.errType);
  }
  if (form.operator) {
    if (oneOf(OPERATORS, form.operator)) search.operator = form.operator;
    else errors.push(m.errOperator);
  }
  if (form.country) {
    if (/^[A-Za-z]{2}$/.test(form.country)) search.countryCode = form.country.toUpperCase();
    else errors.push(m.errCountry);
  }
  // Whole UTC days, both ends included: "to 2024-05-31" means up to the end of that day.
  const from = form.from ? utcDay(form.from) : undefined;
  const to = form.to ? utcDay(form.to) : undefined;
  if (from === null) errors.push(m.errFrom);
  if (to === null) errors.push(m.errTo);
  if (from) search.from = from;
  if (to) search.to = new Date(to.getTime() + DAY_MS);
  if (from && to && from > to) errors.push(m.errFromAfterTo);

  const min = form.amount_min.replace(/[\s\u202f]/g, '');
  const max = form.amount_max.replace(/[\s\u202f]/g, '');
  if (min) {
    if (WHOLE.test(min)) search.amountMin = BigInt(min);
    else errors.push(m.errAmountMin);
  }
  if (max) {
    if (WHOLE.test(max)) search.amountMax = BigInt(max);
    else errors.push(m.errAmountMax);
  }
  if (search.amountMin !== undefined && search.amountMax !== undefined && search.amountMin > search.amountMax)
    errors.push(m.errAmountOrder);

  // A full number only: the list shows numbers masked, so a part of one would find what the mask hides.
  if (form.number) {
    const msisdn = msisdnFilter(form.number);
    if (msisdn) search.msisdn = msisdn;
    else errors.push(m.errNumber);
  }
  if (form.order_id) {
    if (form.order_id.length <= 255) search.merchantOrderId = form.order_id;
    else errors.push(m.errOrderId);
  }

  // Set by a payment link's page ("all payments of this link"); another merchant's link finds nothing.
  if (form.link) {
    if (isUuid(form.link)) search.paymentLinkId = form.link.toLowerCase();
    else errors.push(m.errLink);
  }

  let after: Cursor | undefined;
  const rawAfter = textField(query, 'after');
  if (rawAfter !== '') {
    after = (rawAfter !== null && decodeCursor(rawAfter)) || undefined;
    if (!after) errors.push(m.errCursor);
  }
  return { form, search, after, errors };
}

/** The query string of this search (without the page position), for the pager's links. */
export function paymentFilterQuery(form: PaymentFilterForm, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of PAYMENT_FILTER_KEYS) if (form[key]) params.set(key, form[key]);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return params.toString();
}
