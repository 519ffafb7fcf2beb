import type { Db } from '../database/index.js';

/**
 * The portal's home figures: a merchant's cash-ins of the last days, by UTC day of creation (the day the
 * customer was asked to pay; the export's and the payment search's days are UTC too). Cash-outs are not
 * collections and are left out.
 *
 * - succeeded: SUCCESS, and REVERSED (it succeeded, then was refunded in full): collected is their amount, gross
 *   of refunds (the statement shows refunds).
 * - success rate: succeeded / (succeeded + FAILED + EXPIRED). A payment still in flight (CREATED, INITIATED,
 *   PENDING) has no outcome yet and is left out of the rate, which is null on a day with no outcome.
 * - failures: FAILED cash-ins by failure_code (UNKNOWN when none was recorded).
 * - operators: succeeded cash-ins by operator and currency (count and amount).
 */
export const ACTIVITY_DAYS = 30;

const SUCCEEDED = new Set(['SUCCESS', 'REVERSED']);
const UNSUCCESSFUL = new Set(['FAILED', 'EXPIRED']);
const IN_FLIGHT = new Set(['CREATED', 'INITIATED', 'PENDING']);
const DAY_MS = 86_400_000;

/** One group of the SQL read: the cash-ins of one day, currency, status, failure code and operator. */
export interface ActivityGroup {
  day: string;
  currency: string;
  status: string;
  failureCode: string | null;
  operator: string | null;
  count: number;
  amount: bigint;
}

export interface DayActivity {
  /** YYYY-MM-DD, UTC. */
  day: string;
  succeeded: number;
  unsuccessful: number;
  inFlight: number;
  /** 0..1, or null when no cash-in of the day has an outcome yet. */
  successRate: number | null;
  /** Amount collected per currency (every currency of the window present, 0 when none that day). */
  collected: Record<string, bigint>;
}

export interface MerchantActivity {
  /** The window's first day and the day after its last (UTC midnights). */
  from: Date;
  until: Date;
  /** Oldest first, one per day of the window, days without payments as zeros. */
  days: DayActivity[];
  /** The currencies collected in the window, sorted. */
  currencies: string[];
  totals: { succeeded: number; unsuccessful: number; inFlight: number; successRate: number | null };
  /** Most frequent first. */
  failures: { code: string; count: number }[];
  /** Largest count first. */
  operators: { operator: string; currency: string; count: number; amount: bigint }[];
}

/** The window of `days` UTC days that ends with the day of `now` (today included). */
export function activityWindow(now: Date, days = ACTIVITY_DAYS): { from: Date; until: Date } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: new Date(today - (days - 1) * DAY_MS), until: new Date(today + DAY_MS) };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const rate = (succeeded: number, unsuccessful: number) =>
  succeeded + unsuccessful === 0 ? null : succeeded / (succeeded + unsuccessful);

/** The groups of the read as the home's figures (rows in, numbers out). */
export function activityOf(all: readonly ActivityGroup[], window: { from: Date; until: Date }): MerchantActivity {
  const first = window.from.toISOString().slice(0, 10);
  const last = new Date(window.until.getTime() - DAY_MS).toISOString().slice(0, 10);
  const groups = all.filter((g) => g.day >= first && g.day <= last);
  const currencies = [...new Set(groups.filter((g) => SUCCEEDED.has(g.status)).map((g) => g.currency))].sort();
  const byDay = new Map<string, DayActivity>();
  for (let t = window.from.getTime(); t < window.until.getTime(); t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    byDay.set(day, {
      day,
      succeeded: 0,
      unsuccessful: 0,
      inFlight: 0,
      successRate: null,
      collected: Object.fromEntries(currencies.map((c) => [c, 0n])),
    });
  }
  const failures = new Map<string, number>();
  const operators = new Map<string, { operator: string; currency: string; count: number; amount: bigint }>();
  const totals = { succeeded: 0, unsuccessful: 0, inFlight: 0 };
  for (const g of groups) {
    const d = byDay.get(g.day)!;
    if (SUCCEEDED.has(g.status)) {
      d.succeeded += g.count;
      d.collected[g.currency] = (d.collected[g.currency] ?? 0n) + g.amount;
      totals.succeeded += g.count;
      const operator = g.operator ?? 'UNKNOWN';
      const key = `${operator} ${g.currency}`;
      const o = operators.get(key) ?? { operator, currency: g.currency, count: 0, amount: 0n };
      o.count += g.count;
      o.amount += g.amount;
      operators.set(key, o);
    } else if (UNSUCCESSFUL.has(g.status)) {
      d.unsuccessful += g.count;
      totals.unsuccessful += g.count;
      if (g.status === 'FAILED') {
        const code = g.failureCode ?? 'UNKNOWN';
        failures.set(code, (failures.get(code) ?? 0) + g.count);
      }
    } else if (IN_FLIGHT.has(g.status)) {
      d.inFlight += g.count;
      totals.inFlight += g.count;
    }
  }
  const days = [...byDay.values()].map((d) => ({ ...d, successRate: rate(d.succeeded, d.unsuccessful) }));
  return {
    ...window,
    days,
    currencies,
    totals: { ...totals, successRate: rate(totals.succeeded, totals.unsuccessful) },
    failures: [...failures]
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || compare(a.code, b.code)),
    operators: [...operators.values()].sort(
      (a, b) => b.count - a.count || compare(a.operator, b.operator) || compare(a.currency, b.currency),
    ),
  };
}

/**
 * The merchant's cash-ins of the window, grouped in SQL: one range of transactions_merchant_created_idx (the
 * merchant's rows of the window, never its whole history), a few hundred groups at most.
 */
export async function merchantActivityGroups(
  db: Db,
  merchantId: string,
  window: { from: Date; until: Date },
): Promise<ActivityGroup[]> {
  return db.$queryRaw<ActivityGroup[]>`
    SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, status,
           failure_code AS "failureCode", operator, count(*)::int AS count, sum(amount)::bigint AS amount
      FROM transactions
     WHERE merchant_id = ${merchantId}::uuid AND created_at >= ${window.from} AND created_at < ${window.until}
       AND type = 'CASHIN'
     GROUP BY 1, 2, 3, 4, 5`;
}

/** The home's figures for the window ending today (the caller's clock). */
export async function merchantActivity(db: Db, merchantId: string, now: Date): Promise<MerchantActivity> {
  const window = activityWindow(now);
  return activityOf(await merchantActivityGroups(db, merchantId, window), window);
}
