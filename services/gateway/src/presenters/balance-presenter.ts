import type { BalanceRow } from '@mm/db/ledger';

/** One country of GET /balances: the merchant's available and pending balances there. */
export function presentBalance(r: BalanceRow) {
  return {
    country_code: r.countryCode,
    country_name: r.countryName,
    currency: r.currency,
    available_balance: Number(r.available),
    pending_balance: Number(r.pending),
    updated_at: r.updatedAt.toISOString(),
  };
}
