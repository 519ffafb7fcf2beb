import { CASHOUT_WINDOW_MS, type CashoutWindowTotals } from '@mm/domain';
import type { Tx } from '../database/index.js';

/**
 * Serialises one merchant's cash-out decisions until the caller's transaction ends: twenty requests
 * sent at once each see the ones before them, so none can slip under the daily totals together.
 * Cash-outs are rare next to cash-ins; an advisory lock keeps the merchant's row free for them.
 */
export async function lockMerchantCashouts(tx: Tx, merchantId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`cashout-window:${merchantId}`}, 0))`;
}

/**
 * The merchant's cash-outs of the last 24 hours that are not FAILED, in total and to `msisdn`. The
 * window is on the database's clock, the one that stamped created_at.
 */
export async function cashoutWindowTotals(tx: Tx, merchantId: string, msisdn: string): Promise<CashoutWindowTotals> {
  const [row] = await tx.$queryRaw<{ merchant: bigint | null; beneficiary: bigint | null }[]>`
    SELECT sum(amount) AS merchant, sum(amount) FILTER (WHERE msisdn = ${msisdn}) AS beneficiary
      FROM transactions
     WHERE merchant_id = ${merchantId}::uuid AND type = 'CASHOUT' AND created_at > now() - ${CASHOUT_WINDOW_MS} * interval '1 millisecond' AND status <> 'FAILED'`;
  return { merchant: Number(row?.merchant ?? 0n), beneficiary: Number(row?.beneficiary ?? 0n) };
}
