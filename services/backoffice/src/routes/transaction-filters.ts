/**
 * The transaction search form, read from the query string (a GET form: a search is a link staff can
 * share). Every value is checked before any query runs; a bad one gives a message on the page instead
 * of a database error or, worse, a silently ignored filter that shows the wrong rows.
 */
import type { TransactionSearch } from '@mm/db/payments';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@mm/domain';
import { type Cursor, DAY_MS, decodeCursor, encodeCursor, isUuid, msisdnFilter, textField, utcDay } from '@mm/web';

/** The form's fields as typed, to show them again above the results. */
export interface FilterForm {
  id: string;
  order_id: string;
  number: string;
  status: string;
  type: string;
  merchant: string;
  country: string;
  from: string;
  to: string;
}

export const FILTER_KEYS = [
  'id',
  'order_id',
  'number',
  'status',
  'type',
  'merchant',
  'country',
  'from',
  'to',
] as const satisfies readonly (keyof FilterForm)[];

export type { Cursor };

export interface ParsedFilters {
  form: FilterForm;
  search: TransactionSearch;
  after: Cursor | undefined;
  /** Human messages; when there is any, no query runs. */
  errors: string[];
}

// The day, cursor and number readers are the portal's too (@mm/web search-form.ts).
export { encodeCursor };

export function parseTransactionFilters(query: unknown): ParsedFilters {
  const errors: string[] = [];
  const form = {} as FilterForm;
  for (const key of FILTER_KEYS) {
    const value = textField(query, key);
    if (value === null) errors.push(`The field "${key}" was given more than once.`);
    form[key] = value ?? '';
  }
  const search: TransactionSearch = {};

  if (form.id) {
    if (isUuid(form.id)) search.id = form.id.toLowerCase();
    else errors.push('The transaction id must be a UUID (like 0b6f5c1e-3d0a-4c4e-9a57-2f0d7f1e9c11).');
  }
  if (form.order_id) {
    if (form.order_id.length <= 255) search.merchantOrderId = form.order_id;
    else errors.push('The merchant order id is at most 255 characters.');
  }
  if (form.number) {
    const msisdn = msisdnFilter(form.number);
    if (msisdn) search.msisdn = msisdn;
    else errors.push('Enter the number in international form with its country code, like +2250707000001.');
  }
  if (form.status) {
    if ((TRANSACTION_STATUSES as readonly string[]).includes(form.status)) search.status = form.status;
    else errors.push(`Unknown status "${form.status}".`);
  }
  if (form.type) {
    if ((TRANSACTION_TYPES as readonly string[]).includes(form.type)) search.type = form.type;
    else errors.push(`Unknown type "${form.type}".`);
  }
  if (form.merchant) {
    if (isUuid(form.merchant)) search.merchantId = form.merchant.toLowerCase();
    else errors.push('Unknown merchant.');
  }
  if (form.country) {
    if (/^[A-Za-z]{2}$/.test(form.country)) search.countryCode = form.country.toUpperCase();
    else errors.push('The country is a two-letter code.');
  }
  // Whole UTC days, both ends included: "to 2024-05-31" means up to the end of that day.
  const from = form.from ? utcDay(form.from) : undefined;
  const to = form.to ? utcDay(form.to) : undefined;
  if (from === null) errors.push('"From" is not a date (YYYY-MM-DD).');
  if (to === null) errors.push('"To" is not a date (YYYY-MM-DD).');
  if (from) search.from = from;
  if (to) search.to = new Date(to.getTime() + DAY_MS);
  if (from && to && from > to) errors.push('"From" is after "To".');

  let after: Cursor | undefined;
  const rawAfter = textField(query, 'after');
  if (rawAfter !== '') {
    after = (rawAfter !== null && decodeCursor(rawAfter)) || undefined;
    if (!after) errors.push('The page link is damaged: start the search again.');
  }
  return { form, search, after, errors };
}

/** The query string of this search (without the page position), for the "Older →" link. */
export function filterQuery(form: FilterForm, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) if (form[key]) params.set(key, form[key]);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return params.toString();
}
