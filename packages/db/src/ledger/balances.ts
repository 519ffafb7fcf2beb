import type { Db } from '../database/index.js';

export interface BalanceRow {
  countryCode: string;
  countryName: string;
  currency: string;
  available: bigint;
  pending: bigint;
  updatedAt: Date;
}

/** One row per active subsidiary, zeros where the merchant has no account there yet. */
export async function balancesOf(db: Db, merchantId: string): Promise<BalanceRow[]> {
  return db.$queryRaw<BalanceRow[]>`
    SELECT s.country_code AS "countryCode", s.country_name AS "countryName", s.currency,
           coalesce(sum(a.balance) FILTER (WHERE a.kind = 'MERCHANT_AVAILABLE'), 0)::bigint AS available,
           coalesce(sum(a.balance) FILTER (WHERE a.kind = 'MERCHANT_PENDING'), 0)::bigint AS pending,
           greatest(s.updated_at, max(a.updated_at)) AS "updatedAt"
      FROM subsidiaries s
      LEFT JOIN ledger_accounts a ON a.country_code = s.country_code AND a.merchant_id = ${merchantId}::uuid
     WHERE s.active
     GROUP BY s.country_code, s.country_name, s.currency, s.updated_at
     ORDER BY s.country_code`;
}
