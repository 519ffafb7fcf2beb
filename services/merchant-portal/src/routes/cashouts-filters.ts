/**
 * The cash-out search: the payment search (payments-filters.ts) on the fields a cash-out list needs, its
 * type forced to CASHOUT. Fields of the payment search not offered here are not read from the URL at all,
 * so `?type=CASHIN` cannot turn this list into another one.
 */
import type { PaymentsText } from '../i18n/payments.js';
import { parsePaymentFilters, paymentFilterQuery, type ParsedPaymentFilters } from './payments-filters.js';

export const CASHOUT_FILTER_KEYS = ['status', 'country', 'from', 'to', 'number'] as const;

export function parseCashoutFilters(query: unknown, m: PaymentsText): ParsedPaymentFilters {
  const given = (query ?? {}) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of [...CASHOUT_FILTER_KEYS, 'after']) if (Object.hasOwn(given, key)) kept[key] = given[key];
  const parsed = parsePaymentFilters(kept, m);
  return { ...parsed, search: { ...parsed.search, type: 'CASHOUT' } };
}

/** The query string of this search (without the page position), for the pager's links. */
export const cashoutFilterQuery = paymentFilterQuery;
