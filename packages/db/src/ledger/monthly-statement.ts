import type { Db } from '../database/index.js';

/**
 * The merchant's settled money in one subsidiary: its available balance plus what is reserved for refunds and
 * cash-outs not paid yet. Those reservations are still the merchant's money until the operator pays; a
 * reservation and its release move money between these accounts only, so they never show on a statement.
 * Cash-ins not captured yet (MERCHANT_PENDING) are not collected: they are left out.
 */
export const STATEMENT_ACCOUNT_KINDS = ['MERCHANT_AVAILABLE', 'MERCHANT_REFUND_RESERVED', 'MERCHANT_CASHOUT_RESERVED'];

export interface StatementRow {
  countryCode: string;
  countryName: string;
  currency: string;
  /** The settled balance at the month's first instant (UTC). */
  opening: bigint;
  /** Cash-ins captured in the month (CASHIN_CAPTURED, CASHIN_LATE_CAPTURED). */
  collected: bigint;
  /** Refunds paid to customers in the month (REFUND_PAID). */
  refunded: bigint;
  /** Cash-outs paid to the merchant's wallets in the month (CASHOUT_PAID). */
  paidOut: bigint;
  /** Any other movement of the settled balance in the month; zero while the ledger has no other posting. */
  other: bigint;
  /** The settled balance at the month's end (or now, for the month under way). */
  closing: bigint;
}

/** A UTC calendar month: [start, end). */
export interface StatementMonth {
  start: Date;
  end: Date;
}

/** `YYYY-MM` as the month's UTC bounds, or null. */
export function statementMonth(text: string): StatementMonth | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]) - 1;
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

/**
 * One row per active subsidiary (and any other where the merchant has an account), read from the ledger in one
 * statement, so in one snapshot: the balance at an instant is the accounts' balance now less what their journal
 * entries moved since. Only the entries since the month's start are read (journal_entries_account_created_idx).
 * Invariant: opening + collected − refunded − paid out + other = closing; the ledger has no fee postings.
 */
export async function monthlyStatement(db: Db, merchantId: string, month: StatementMonth): Promise<StatementRow[]> {
  return db.$queryRaw<StatementRow[]>`
    WITH acc AS (
      SELECT id, country_code, balance FROM ledger_accounts
       WHERE merchant_id = ${merchantId}::uuid AND kind = ANY(${STATEMENT_ACCOUNT_KINDS}::text[])),
    held AS (SELECT country_code, sum(balance) AS balance FROM acc GROUP BY country_code),
    moved AS (
      SELECT a.country_code,
             sum(e.amount) AS since_start,
             coalesce(sum(e.amount) FILTER (WHERE e.created_at >= ${month.end}), 0) AS since_end,
             coalesce(sum(e.amount) FILTER (WHERE e.created_at < ${month.end}), 0) AS in_month,
             coalesce(sum(e.amount) FILTER (WHERE e.created_at < ${month.end}
                                              AND e.posting IN ('CASHIN_CAPTURED', 'CASHIN_LATE_CAPTURED')), 0) AS collected,
             coalesce(-sum(e.amount) FILTER (WHERE e.created_at < ${month.end} AND e.posting = 'REFUND_PAID'), 0) AS refunded,
             coalesce(-sum(e.amount) FILTER (WHERE e.created_at < ${month.end} AND e.posting = 'CASHOUT_PAID'), 0) AS paid_out
        FROM acc a JOIN journal_entries e ON e.account_id = a.id AND e.created_at >= ${month.start}
       GROUP BY a.country_code)
    SELECT s.country_code AS "countryCode", s.country_name AS "countryName", s.currency,
           (coalesce(h.balance, 0) - coalesce(m.since_start, 0))::bigint AS opening,
           coalesce(m.collected, 0)::bigint AS collected,
           coalesce(m.refunded, 0)::bigint AS refunded,
           coalesce(m.paid_out, 0)::bigint AS "paidOut",
           (coalesce(m.in_month, 0) - coalesce(m.collected, 0) + coalesce(m.refunded, 0) + coalesce(m.paid_out, 0))::bigint AS other,
           (coalesce(h.balance, 0) - coalesce(m.since_end, 0))::bigint AS closing
      FROM subsidiaries s
      LEFT JOIN held h ON h.country_code = s.country_code
      LEFT JOIN moved m ON m.country_code = s.country_code
     WHERE s.active OR h.country_code IS NOT NULL
     ORDER BY s.country_code`;
}
