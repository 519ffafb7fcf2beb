import type { Db } from '../database/index.js';
import { Prisma } from '../generated/prisma/client.js';

const DAY_MS = 86_400_000;

/** The cash-ins of one operator account in one currency, created in the day. */
export interface CashinDayRow {
  countryCode: string;
  operator: string;
  currency: string;
  /** Every cash-in created in the day, whatever it became. */
  created: number;
  success: number;
  failed: number;
  expired: number;
  /** Sum of the SUCCESS ones: the money collected. */
  successAmount: bigint;
}

/** One line of the home page's table: an operator or a country, its currencies side by side. */
export interface CashinDayTotals {
  key: string;
  created: number;
  success: number;
  failed: number;
  expired: number;
  /** Money collected (SUCCESS) per currency: an operator runs in countries of different currencies. */
  successAmount: Record<string, bigint>;
  /**
   * SUCCESS / (SUCCESS + FAILED + EXPIRED); null while none is decided. REVERSED is left out on purpose:
   * this is how staff asked for the day's rate, unlike /operators' last hour, which counts it a success.
   */
  successRate: number | null;
}

/** The UTC day containing `at`, as [start, end): business days are UTC days, as in reconciliation. */
export function utcDayOf(at: Date): { start: Date; end: Date } {
  const start = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

/**
 * Exported for the index test: the range on created_at is what lets transactions_created_idx bound the
 * read to the day's rows (type and status are filtered on those rows only).
 */
export function cashinDaySql(start: Date, end: Date): Prisma.Sql {
  return Prisma.sql`
    SELECT country_code, operator, currency,
           count(*)::int AS created,
           (count(*) FILTER (WHERE status = 'SUCCESS'))::int AS success,
           (count(*) FILTER (WHERE status = 'FAILED'))::int AS failed,
           (count(*) FILTER (WHERE status = 'EXPIRED'))::int AS expired,
           COALESCE(sum(amount) FILTER (WHERE status = 'SUCCESS'), 0)::bigint AS success_amount
      FROM transactions
     WHERE created_at >= ${start}::timestamptz AND created_at < ${end}::timestamptz AND type = 'CASHIN'
     GROUP BY country_code, operator, currency
     ORDER BY country_code, operator, currency`;
}

/** The cash-ins created in the UTC day of `at`, per operator account and currency. */
export async function cashinDaySummary(db: Db, at: Date): Promise<CashinDayRow[]> {
  const { start, end } = utcDayOf(at);
  const rows = await db.$queryRaw<
    {
      country_code: string;
      operator: string;
      currency: string;
      created: number;
      success: number;
      failed: number;
      expired: number;
      success_amount: bigint;
    }[]
  >(cashinDaySql(start, end));
  return rows.map((r) => ({
    countryCode: r.country_code,
    operator: r.operator,
    currency: r.currency,
    created: r.created,
    success: r.success,
    failed: r.failed,
    expired: r.expired,
    successAmount: r.success_amount,
  }));
}

/** The rows added up by operator or by country, sorted by that key. */
export function cashinTotalsBy(rows: readonly CashinDayRow[], by: 'operator' | 'countryCode'): CashinDayTotals[] {
  const totals = new Map<string, CashinDayTotals>();
  for (const r of rows) {
    const key = r[by];
    let t = totals.get(key);
    if (!t) {
      t = { key, created: 0, success: 0, failed: 0, expired: 0, successAmount: {}, successRate: null };
      totals.set(key, t);
    }
    t.created += r.created;
    t.success += r.success;
    t.failed += r.failed;
    t.expired += r.expired;
    if (r.successAmount > 0n) t.successAmount[r.currency] = (t.successAmount[r.currency] ?? 0n) + r.successAmount;
  }
  for (const t of totals.values()) {
    const decided = t.success + t.failed + t.expired;
    t.successRate = decided > 0 ? t.success / decided : null;
  }
  return [...totals.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** Cash-outs waiting for a person's decision; the partial index transactions_awaiting_approval_idx holds only them. */
export async function countAwaitingCashouts(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM transactions WHERE status = 'AWAITING_APPROVAL' AND type = 'CASHOUT'`;
  return row?.n ?? 0;
}
