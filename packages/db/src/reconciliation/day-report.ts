import {
  MATCH_CATEGORIES,
  type CategoryTotals,
  type DifferenceCategory,
  type MatchCategory,
  type RecordKind,
} from '@mm/domain';
import type { Db, Tx } from '../database/index.js';

/** One open case of the day, as the report lists it. */
export interface DayReportCase {
  id: string;
  kind: RecordKind;
  /** Our reference of the movement, or the operator's key of a record unknown to us (`op:<its id>`). */
  reference: string;
  category: DifferenceCategory;
  /** How much more the operator holds than our books say (negative: less), in `currency`. */
  difference: number;
  currency: string;
  transaction_id: string | null;
  refund_id: string | null;
  opened_at: string;
}

/** One operator account's day. */
export interface DayReportAccount {
  country_code: string;
  operator: string;
  /** The subsidiary's currency: the one of the amounts of `by_category`. */
  currency: string | null;
  /** The day's last run; null when the day was never reconciled for this account. */
  run: { runs: number; sources: string[]; finished_at: string } | null;
  matched: number;
  /** Counts and amounts per category as the last run found them (zeros when never run). */
  by_category: Record<MatchCategory, CategoryTotals>;
  /** Cases of the day still open now (a person may have resolved some since the run). */
  open_cases: number;
  /** Sum of |difference| of the open cases, per currency. */
  unmatched_amount: Record<string, number>;
  /** Cases of the day resolved, by resolution (MATCHED_LATER, AUTOMATIC, ACCEPTED, WRITTEN_OFF). */
  resolved_cases: Record<string, number>;
  cases: DayReportCase[];
}

/** The reconciliation report of one business day (docs/reconciliation.md). */
export interface DayReport {
  date: string;
  /** The filters asked for (null: all). */
  operator: string | null;
  country_code: string | null;
  accounts: DayReportAccount[];
}

export interface DayReportFilter {
  /** YYYY-MM-DD (UTC). */
  date: string;
  operator?: string;
  countryCode?: string;
}

interface AccountRow {
  country_code: string;
  operator: string;
  currency: string | null;
  runs: number | null;
  sources: string[] | null;
  totals: Partial<Record<MatchCategory, CategoryTotals>> | null;
  matched: number | null;
  finished_at: Date | null;
}

interface CaseRow {
  id: string;
  country_code: string;
  operator: string;
  kind: RecordKind;
  record_key: string;
  category: DifferenceCategory;
  state: 'OPEN' | 'RESOLVED';
  resolution: string | null;
  difference: bigint;
  currency: string;
  transaction_id: string | null;
  refund_id: string | null;
  created_at: Date;
}

/**
 * The day's report per operator account (the admin command `reconcile:report` and the back-office serve the
 * same): the last run's counts and amounts per category (reconciliation_runs), and the cases of the day
 * (those its runs opened: business_date), open ones listed. Every enabled account is in it, run or not, so
 * a day that was never reconciled shows (run null); so is any account with a run or a case that day.
 */
export async function dayReport(db: Db | Tx, filter: DayReportFilter): Promise<DayReport> {
  const { date } = filter;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
    throw new Error(`not a date (YYYY-MM-DD): ${date}`);
  const operator = filter.operator ?? null;
  const country = filter.countryCode ?? null;
  const accounts = await db.$queryRaw<AccountRow[]>`
    WITH accounts AS (
      SELECT country_code, operator FROM operator_accounts WHERE enabled
      UNION SELECT country_code, operator FROM reconciliation_runs WHERE business_date = ${date}::date
      UNION SELECT country_code, operator FROM reconciliation_cases WHERE business_date = ${date}::date
    )
    SELECT a.country_code, a.operator, s.currency, r.runs, r.sources, r.totals, r.matched, r.finished_at
      FROM accounts a
      LEFT JOIN reconciliation_runs r ON r.country_code = a.country_code AND r.operator = a.operator AND r.business_date = ${date}::date
      LEFT JOIN subsidiaries s ON s.country_code = a.country_code
     WHERE (${operator}::text IS NULL OR a.operator = ${operator}) AND (${country}::text IS NULL OR a.country_code = ${country})
     ORDER BY a.country_code, a.operator`;
  const cases = await db.$queryRaw<CaseRow[]>`
    SELECT id::text, country_code, operator, kind, record_key, category, state, resolution, difference, currency,
           transaction_id::text, refund_id::text, created_at
      FROM reconciliation_cases
     WHERE business_date = ${date}::date
       AND (${operator}::text IS NULL OR operator = ${operator}) AND (${country}::text IS NULL OR country_code = ${country})
     ORDER BY country_code, operator, kind, record_key`;
  return {
    date,
    operator,
    country_code: country,
    accounts: accounts.map((a) => {
      const own = cases.filter((c) => c.country_code === a.country_code && c.operator === a.operator);
      const open = own.filter((c) => c.state === 'OPEN');
      const unmatched: Record<string, number> = {};
      for (const c of open) unmatched[c.currency] = (unmatched[c.currency] ?? 0) + Math.abs(Number(c.difference));
      const resolved: Record<string, number> = {};
      for (const c of own)
        if (c.state === 'RESOLVED' && c.resolution) resolved[c.resolution] = (resolved[c.resolution] ?? 0) + 1;
      return {
        country_code: a.country_code,
        operator: a.operator,
        currency: a.currency,
        run:
          a.runs === null
            ? null
            : { runs: a.runs, sources: a.sources ?? [], finished_at: a.finished_at!.toISOString() },
        matched: a.matched ?? 0,
        by_category: Object.fromEntries(
          MATCH_CATEGORIES.map((c) => [c, { count: a.totals?.[c]?.count ?? 0, amount: a.totals?.[c]?.amount ?? 0 }]),
        ) as Record<MatchCategory, CategoryTotals>,
        open_cases: open.length,
        unmatched_amount: unmatched,
        resolved_cases: resolved,
        cases: open.map((c) => ({
          id: c.id,
          kind: c.kind,
          reference: c.record_key,
          category: c.category,
          difference: Number(c.difference),
          currency: c.currency,
          transaction_id: c.transaction_id,
          refund_id: c.refund_id,
          opened_at: c.created_at.toISOString(),
        })),
      };
    }),
  };
}

/** Open cases now, per operator account and currency: what the bridge's gauges report. */
export interface OpenCaseTotals {
  country_code: string;
  operator: string;
  currency: string;
  open_cases: number;
  /** Sum of |difference| of the open cases. */
  unmatched_amount: number;
}

/**
 * The open cases of every operator account, whatever their day; each enabled account is listed too, in its
 * subsidiary's currency, with zeros when it has none (a gauge at 0 rather than no series).
 */
export async function openCaseTotals(db: Db | Tx): Promise<OpenCaseTotals[]> {
  const rows = await db.$queryRaw<
    { country_code: string; operator: string; currency: string; open_cases: number; unmatched_amount: bigint }[]
  >`
    SELECT country_code, operator, currency, sum(n)::int AS open_cases, sum(amount)::bigint AS unmatched_amount FROM (
      SELECT country_code, operator, currency, count(*) AS n, sum(abs(difference)) AS amount
        FROM reconciliation_cases WHERE state = 'OPEN' GROUP BY country_code, operator, currency
      UNION ALL
      SELECT a.country_code, a.operator, s.currency, 0, 0
        FROM operator_accounts a JOIN subsidiaries s ON s.country_code = a.country_code WHERE a.enabled
    ) t
    GROUP BY country_code, operator, currency
    ORDER BY country_code, operator, currency`;
  return rows.map((r) => ({ ...r, unmatched_amount: Number(r.unmatched_amount) }));
}
