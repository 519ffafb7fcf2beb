/**
 * The transaction search form, read from the query string (a GET form: a search is a link staff can
 * share). Every value is checked before any query runs; a bad one gives a message on the page instead
 * of a database error or, worse, a silently ignored filter that shows the wrong rows.
 */
import type { TransactionSearch } from '@mm/db/payments';
import { parseMsisdn, TRANSACTION_STATUSES, TRANSACTION_TYPES } from '@mm/domain';
import { isUuid, textField } from '@mm/web';

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

export interface Cursor {
  createdAt: Date;
  id: string;
}

export interface ParsedFilters {
  form: FilterForm;
  search: TransactionSearch;
  after: Cursor | undefined;
  /** Human messages; when there is any, no query runs. */
  errors: string[];
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** A calendar day (what <input type="date"> sends) as the UTC midnight it starts at; null if not a real date. */
function utcDay(value: string): Date | null {
  const m = DAY.exec(value);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  // Date.UTC rolls 2024-02-30 over to March: a date that does not round-trip was not a real one.
  return date.toISOString().slice(0, 10) === value ? date : null;
}

/** The "Older →" link's position: `<created_at ISO>_<id>` of the last row shown. */
export function encodeCursor(c: Cursor): string {
  return `${c.createdAt.toISOString()}_${c.id}`;
}

function decodeCursor(value: string): Cursor | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_(.+)$/.exec(value);
  if (!m || !isUuid(m[2]!)) return null;
  const createdAt = new Date(m[1]!);
  return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id: m[2]!.toLowerCase() };
}

/**
 * The number as staff type it: international (E.164) form, normalised by parseMsisdn when it is a valid
 * number. Local spellings (0707...) are refused rather than guessed: the same digits mean different
 * numbers in different countries. A "+digits" value that the numbering plan rejects is still searched
 * as typed, in case an older plan accepted it.
 */
function msisdnFilter(typed: string): string | null {
  const compact = typed.replace(/[\s.()-]/g, '');
  const parsed = parseMsisdn(compact);
  if (parsed) return parsed.e164;
  return /^\+[1-9]\d{5,14}$/.test(compact) ? compact : null;
}

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
