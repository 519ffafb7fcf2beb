/**
 * The filters of the reconciliation lists, read from the query string (GET forms: a list is a link).
 * Every value is checked before any query runs; a bad one gives a message and no query.
 */
import type { CaseCursor, CaseQuery, RunCursor, RunQuery } from '@mm/db/reconciliation';
import { MATCH_CATEGORIES, isDifference, type DifferenceCategory } from '@mm/domain';
import { isUuid, textField } from '@mm/web';

export const DIFFERENCE_CATEGORIES = MATCH_CATEGORIES.filter(isDifference) as DifferenceCategory[];
export const CASE_STATES = ['open', 'resolved', 'all'] as const;

const OPERATOR = /^[A-Z][A-Z0-9_]{1,31}$/;
const COUNTRY = /^[A-Z]{2}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day as typed (YYYY-MM-DD) that exists (2026-02-30 does not). */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export interface RunFilterForm {
  operator: string;
  country: string;
}

export interface CaseFilterForm {
  state: string;
  operator: string;
  country: string;
  category: string;
  date: string;
}

export interface Parsed<F, Q> {
  form: F;
  query: Q;
  /** True on a later page (a link back to the first is shown). */
  paged: boolean;
  errors: string[];
}

function read<K extends string>(source: unknown, keys: readonly K[], errors: string[]): Record<K, string> {
  const form = {} as Record<K, string>;
  for (const key of keys) {
    const value = textField(source, key);
    if (value === null) errors.push(`The field "${key}" was given more than once.`);
    form[key] = value ?? '';
  }
  return form;
}

function account(
  form: { operator: string; country: string },
  errors: string[],
): { operator?: string; countryCode?: string } {
  const out: { operator?: string; countryCode?: string } = {};
  if (form.operator) {
    if (OPERATOR.test(form.operator.toUpperCase())) out.operator = form.operator.toUpperCase();
    else errors.push('Unknown operator.');
  }
  if (form.country) {
    if (COUNTRY.test(form.country.toUpperCase())) out.countryCode = form.country.toUpperCase();
    else errors.push('The country is a two-letter code.');
  }
  return out;
}

/** The "Older →" link's position on the days: `<day>_<country>_<operator>` of the last row shown. */
export function encodeRunCursor(c: RunCursor): string {
  return `${c.businessDate}_${c.countryCode}_${c.operator}`;
}

export function parseRunFilters(source: unknown, limit: number): Parsed<RunFilterForm, RunQuery> {
  const errors: string[] = [];
  const form = read(source, ['operator', 'country'] as const, errors);
  const query: RunQuery = { limit, ...account(form, errors) };
  const after = textField(source, 'after');
  if (after) {
    const m = /^(\d{4}-\d{2}-\d{2})_([A-Z]{2})_([A-Z][A-Z0-9_]{1,31})$/.exec(after);
    if (m && isDay(m[1]!)) query.after = { businessDate: m[1]!, countryCode: m[2]!, operator: m[3]! };
    else errors.push('The page link is damaged: start again.');
  } else if (after === null) errors.push('The page link is damaged: start again.');
  return { form, query, paged: Boolean(after), errors };
}

/** The "Older →" link's position on the cases: `<day>_<id>` of the last row shown. */
export function encodeCaseCursor(c: CaseCursor): string {
  return `${c.businessDate}_${c.id}`;
}

export function parseCaseFilters(source: unknown, limit: number): Parsed<CaseFilterForm, CaseQuery> {
  const errors: string[] = [];
  const form = read(source, ['state', 'operator', 'country', 'category', 'date'] as const, errors);
  const query: CaseQuery = { limit, ...account(form, errors) };
  // Open cases unless asked otherwise: they are what someone has to look at.
  const state = form.state || 'open';
  if ((CASE_STATES as readonly string[]).includes(state)) {
    if (state !== 'all') query.state = state === 'open' ? 'OPEN' : 'RESOLVED';
  } else errors.push('The state is open, resolved or all.');
  form.state = state;
  if (form.category) {
    if ((DIFFERENCE_CATEGORIES as string[]).includes(form.category)) query.category = form.category;
    else errors.push(`Unknown category "${form.category}".`);
  }
  if (form.date) {
    if (isDay(form.date)) query.businessDate = form.date;
    else errors.push('The business day is a date (YYYY-MM-DD).');
  }
  const after = textField(source, 'after');
  if (after) {
    const m = /^(\d{4}-\d{2}-\d{2})_(.+)$/.exec(after);
    if (m && isDay(m[1]!) && isUuid(m[2]!)) query.after = { businessDate: m[1]!, id: m[2]!.toLowerCase() };
    else errors.push('The page link is damaged: start again.');
  } else if (after === null) errors.push('The page link is damaged: start again.');
  return { form, query, paged: Boolean(after), errors };
}

/** The query string of a list's filters (without the page position), plus `extra`. */
export function listQuery(form: object, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(form as Record<string, string>)) if (v) params.set(k, v);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return params.toString();
}
