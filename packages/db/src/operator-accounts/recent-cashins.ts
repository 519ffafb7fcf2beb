import type { Db } from '../database/index.js';

/** An operator account's cash-ins created since a moment, by where they stand now. */
export interface AccountCashinOutcomes {
  countryCode: string;
  operator: string;
  /** SUCCESS, and REVERSED (the operator took the money; it was given back afterwards). */
  success: number;
  failed: number;
  expired: number;
  /** Not decided yet: CREATED, INITIATED, PENDING. */
  pending: number;
}

/**
 * The cash-ins created since `since`, per operator account (country, operator) and outcome: the
 * database's view, authoritative whatever the number of replicas (the operator-call metrics are each
 * process's own). One query, a range scan of transactions_created_idx (created_at): an hour of
 * cash-ins, grouped; no index of its own (it runs on a page load, not on the payment path).
 */
export async function cashinOutcomesByAccount(db: Db, since: Date): Promise<AccountCashinOutcomes[]> {
  const rows = await db.$queryRaw<{ country_code: string; operator: string; status: string; n: number }[]>`
    SELECT country_code, operator, status, count(*)::int AS n FROM transactions
     WHERE created_at >= ${since} AND type = 'CASHIN'
     GROUP BY country_code, operator, status`;
  const byAccount = new Map<string, AccountCashinOutcomes>();
  for (const r of rows) {
    const key = `${r.country_code}:${r.operator}`;
    const entry = byAccount.get(key) ?? {
      countryCode: r.country_code,
      operator: r.operator,
      success: 0,
      failed: 0,
      expired: 0,
      pending: 0,
    };
    byAccount.set(key, entry);
    if (r.status === 'SUCCESS' || r.status === 'REVERSED') entry.success += r.n;
    else if (r.status === 'FAILED') entry.failed += r.n;
    else if (r.status === 'EXPIRED') entry.expired += r.n;
    else entry.pending += r.n;
  }
  return [...byAccount.values()].sort(
    (a, b) => a.countryCode.localeCompare(b.countryCode) || a.operator.localeCompare(b.operator),
  );
}
