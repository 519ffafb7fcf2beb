import type { Db } from '../database/index.js';

export interface LedgerProblem {
  check: string;
  detail: Record<string, string>;
}

export interface LedgerReport {
  ok: boolean;
  journals: number;
  accounts: number;
  problems: LedgerProblem[];
}

const text = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : String(v)]));

/**
 * Recomputes the ledger from the journal and cross-checks it against the records it describes.
 * Every check is a query that lists offending rows; an empty list everywhere is a proof of balance.
 */
export async function verifyLedger(db: Db): Promise<LedgerReport> {
  const checks: [string, Promise<Record<string, unknown>[]>][] = [
    [
      'journal does not sum to zero',
      db.$queryRaw`
      SELECT journal_id, sum(amount) AS total FROM journal_entries GROUP BY journal_id HAVING sum(amount) <> 0`,
    ],
    [
      'account balance differs from its journal entries',
      db.$queryRaw`
      SELECT a.id AS account_id, a.merchant_id, a.country_code, a.kind, a.balance, coalesce(sum(e.amount), 0) AS from_journal
        FROM ledger_accounts a LEFT JOIN journal_entries e ON e.account_id = a.id
       WHERE a.merchant_id IS NOT NULL OR a.kind IN ('CUSTOMER_SUSPENSE', 'RECONCILIATION_SUSPENSE', 'RECONCILIATION_WRITE_OFF')
       GROUP BY a.id HAVING a.balance <> coalesce(sum(e.amount), 0)`,
    ],
    [
      'merchant balance is negative',
      db.$queryRaw`
      SELECT id AS account_id, merchant_id, country_code, kind, balance FROM ledger_accounts WHERE merchant_id IS NOT NULL AND balance < 0`,
    ],
    [
      'pending balance differs from the cash-ins in flight',
      db.$queryRaw`
      WITH inflight AS (
        SELECT merchant_id, country_code, sum(amount) AS total FROM transactions
         WHERE type = 'CASHIN' AND status IN ('CREATED', 'INITIATED', 'PENDING') GROUP BY merchant_id, country_code),
      booked AS (SELECT merchant_id, country_code, balance FROM ledger_accounts WHERE kind = 'MERCHANT_PENDING')
      SELECT coalesce(i.merchant_id, b.merchant_id) AS merchant_id, coalesce(i.country_code, b.country_code) AS country_code,
             coalesce(i.total, 0) AS in_flight, coalesce(b.balance, 0) AS pending_balance
        FROM inflight i FULL JOIN booked b ON b.merchant_id = i.merchant_id AND b.country_code = i.country_code
       WHERE coalesce(i.total, 0) <> coalesce(b.balance, 0)`,
    ],
    [
      'refund reservation differs from the pending refunds',
      db.$queryRaw`
      WITH pending AS (
        SELECT r.merchant_id, t.country_code, sum(r.amount) AS total FROM refunds r JOIN transactions t ON t.id = r.transaction_id
         WHERE r.status = 'PENDING' AND r.origin = 'MERCHANT' GROUP BY r.merchant_id, t.country_code),
      booked AS (SELECT merchant_id, country_code, balance FROM ledger_accounts WHERE kind = 'MERCHANT_REFUND_RESERVED')
      SELECT coalesce(p.merchant_id, b.merchant_id) AS merchant_id, coalesce(p.country_code, b.country_code) AS country_code,
             coalesce(p.total, 0) AS pending_refunds, coalesce(b.balance, 0) AS reserved_balance
        FROM pending p FULL JOIN booked b ON b.merchant_id = p.merchant_id AND b.country_code = p.country_code
       WHERE coalesce(p.total, 0) <> coalesce(b.balance, 0)`,
    ],
    [
      'cash-out reservation differs from the cash-outs not yet paid',
      db.$queryRaw`
      WITH open AS (
        SELECT merchant_id, country_code, sum(amount) AS total FROM transactions
         WHERE type = 'CASHOUT' AND status IN ('CREATED', 'AWAITING_APPROVAL', 'INITIATED') GROUP BY merchant_id, country_code),
      booked AS (SELECT merchant_id, country_code, balance FROM ledger_accounts WHERE kind = 'MERCHANT_CASHOUT_RESERVED')
      SELECT coalesce(o.merchant_id, b.merchant_id) AS merchant_id, coalesce(o.country_code, b.country_code) AS country_code,
             coalesce(o.total, 0) AS open_cashouts, coalesce(b.balance, 0) AS reserved_balance
        FROM open o FULL JOIN booked b ON b.merchant_id = o.merchant_id AND b.country_code = o.country_code
       WHERE coalesce(o.total, 0) <> coalesce(b.balance, 0)`,
    ],
    [
      'a cash-out journal does not match its status',
      db.$queryRaw`
      SELECT t.id AS transaction_id, t.status,
             count(*) FILTER (WHERE e.posting = 'CASHOUT_RESERVED' AND e.amount > 0) AS reserved,
             count(*) FILTER (WHERE e.posting = 'CASHOUT_PAID' AND e.amount > 0) AS paid,
             count(*) FILTER (WHERE e.posting = 'CASHOUT_RELEASED' AND e.amount > 0) AS released
        FROM transactions t LEFT JOIN journal_entries e ON e.transaction_id = t.id
       WHERE t.type = 'CASHOUT'
       GROUP BY t.id
      HAVING count(*) FILTER (WHERE e.posting = 'CASHOUT_RESERVED' AND e.amount > 0) <> 1
          OR count(*) FILTER (WHERE e.posting = 'CASHOUT_PAID' AND e.amount > 0) <> (CASE WHEN t.status = 'SUCCESS' THEN 1 ELSE 0 END)
          OR count(*) FILTER (WHERE e.posting = 'CASHOUT_RELEASED' AND e.amount > 0) <> (CASE WHEN t.status = 'FAILED' THEN 1 ELSE 0 END)`,
    ],
    [
      'transaction refund totals differ from its refunds',
      db.$queryRaw`
      SELECT t.id AS transaction_id, t.amount, t.refunded_amount, t.refund_reserved_amount,
             coalesce(sum(r.amount) FILTER (WHERE r.status = 'SUCCESS'), 0) AS refunds_succeeded,
             coalesce(sum(r.amount) FILTER (WHERE r.status <> 'FAILED'), 0) AS refunds_not_failed
        FROM transactions t LEFT JOIN refunds r ON r.transaction_id = t.id AND r.origin = 'MERCHANT'
       GROUP BY t.id
      HAVING t.refunded_amount <> coalesce(sum(r.amount) FILTER (WHERE r.status = 'SUCCESS'), 0)
          OR t.refund_reserved_amount <> coalesce(sum(r.amount) FILTER (WHERE r.status <> 'FAILED'), 0)
          OR coalesce(sum(r.amount) FILTER (WHERE r.status <> 'FAILED'), 0) > t.amount`,
    ],
    // Decisions 13: what is in suspense is exactly the late successes not yet paid back to their customers,
    // so a return that succeeded has brought its own suspense back to zero.
    [
      'suspense differs from the late successes not yet returned',
      db.$queryRaw`
      WITH held AS (
        SELECT t.country_code, sum(r.amount) AS total FROM refunds r JOIN transactions t ON t.id = r.transaction_id
         WHERE r.origin = 'LATE_SUCCESS' AND r.status <> 'SUCCESS' GROUP BY t.country_code),
      booked AS (SELECT country_code, balance FROM ledger_accounts WHERE kind = 'CUSTOMER_SUSPENSE')
      SELECT coalesce(h.country_code, b.country_code) AS country_code, coalesce(h.total, 0) AS not_returned, coalesce(b.balance, 0) AS suspense_balance
        FROM held h FULL JOIN booked b ON b.country_code = h.country_code
       WHERE coalesce(h.total, 0) <> coalesce(b.balance, 0) OR coalesce(b.balance, 0) < 0`,
    ],
    [
      'a late-success return does not match its journal or its cash-in',
      db.$queryRaw`
      SELECT r.id AS refund_id, r.transaction_id, r.status, r.amount, t.type, t.status AS transaction_status,
             coalesce(sum(e.amount) FILTER (WHERE a.kind = 'CUSTOMER_SUSPENSE'), 0) AS in_suspense,
             count(*) FILTER (WHERE e.posting = 'LATE_SUCCESS_HELD' AND a.kind = 'CUSTOMER_SUSPENSE') AS held,
             count(*) FILTER (WHERE e.posting = 'LATE_SUCCESS_RETURNED' AND a.kind = 'CUSTOMER_SUSPENSE') AS returned
        FROM refunds r JOIN transactions t ON t.id = r.transaction_id
        LEFT JOIN journal_entries e ON e.refund_id = r.id LEFT JOIN ledger_accounts a ON a.id = e.account_id
       WHERE r.origin = 'LATE_SUCCESS'
       GROUP BY r.id, t.id
      HAVING t.type <> 'CASHIN' OR t.status <> 'FAILED' OR r.amount <> t.amount
          OR count(*) FILTER (WHERE e.posting = 'LATE_SUCCESS_HELD' AND a.kind = 'CUSTOMER_SUSPENSE') <> 1
          OR count(*) FILTER (WHERE e.posting = 'LATE_SUCCESS_RETURNED' AND a.kind = 'CUSTOMER_SUSPENSE') <> (CASE WHEN r.status = 'SUCCESS' THEN 1 ELSE 0 END)
          OR coalesce(sum(e.amount) FILTER (WHERE a.kind = 'CUSTOMER_SUSPENSE'), 0) <> (CASE WHEN r.status = 'SUCCESS' THEN 0 ELSE r.amount END)`,
    ],
    // docs/reconciliation.md: the reconciliation accounts hold exactly what people resolved, case by case.
    [
      'reconciliation accounts differ from the resolved cases',
      db.$queryRaw`
      WITH cases AS (
        SELECT country_code, sum(posted_amount - written_off_amount) AS suspense, sum(written_off_amount) AS written_off
          FROM reconciliation_cases GROUP BY country_code),
      booked AS (
        SELECT country_code, sum(balance) FILTER (WHERE kind = 'RECONCILIATION_SUSPENSE') AS suspense,
               sum(balance) FILTER (WHERE kind = 'RECONCILIATION_WRITE_OFF') AS written_off
          FROM ledger_accounts WHERE kind IN ('RECONCILIATION_SUSPENSE', 'RECONCILIATION_WRITE_OFF') GROUP BY country_code)
      SELECT coalesce(c.country_code, b.country_code) AS country_code,
             coalesce(c.suspense, 0) AS cases_suspense, coalesce(b.suspense, 0) AS suspense_balance,
             coalesce(c.written_off, 0) AS cases_written_off, coalesce(b.written_off, 0) AS write_off_balance
        FROM cases c FULL JOIN booked b ON b.country_code = c.country_code
       WHERE coalesce(c.suspense, 0) <> coalesce(b.suspense, 0) OR coalesce(c.written_off, 0) <> coalesce(b.written_off, 0)`,
    ],
    [
      'a REVERSED transaction is not fully refunded, or a fully refunded one is not REVERSED',
      db.$queryRaw`
      SELECT id AS transaction_id, status, amount, refunded_amount FROM transactions
       WHERE (status = 'REVERSED') <> (refunded_amount = amount AND refunded_amount > 0)`,
    ],
  ];
  const problems: LedgerProblem[] = [];
  for (const [check, query] of checks) {
    for (const row of await query) problems.push({ check, detail: text(row) });
  }
  const [counts] = await db.$queryRaw<{ journals: bigint; accounts: bigint }[]>`
    SELECT (SELECT count(DISTINCT journal_id) FROM journal_entries) AS journals, (SELECT count(*) FROM ledger_accounts) AS accounts`;
  return {
    ok: problems.length === 0,
    journals: Number(counts?.journals ?? 0),
    accounts: Number(counts?.accounts ?? 0),
    problems,
  };
}
