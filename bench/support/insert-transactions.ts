import type pg from 'pg';

/**
 * `count` transactions of the merchant spread over the month `month` (YYYY-MM) of 2025, with the mix
 * of states, countries and operator fields an export really carries.
 */
export async function insertRows(sql: pg.Pool, merchantId: string, count: number, month: string): Promise<number> {
  const started = performance.now();
  const chunk = 250_000;
  for (let offset = 0; offset < count; offset += chunk) {
    await sql.query(
      `INSERT INTO transactions (merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn,
         request_fingerprint, provider_reference, provider_tx_id, provider_session_id, provider_state, provider_txn_status,
         failure_code, failure_reason, completed_at, created_at, updated_at)
       SELECT $1, 'bench-${month}-' || g, 'CASHIN', s.status, 100 + (g % 50000) * 10, c.currency, c.country, c.msisdn,
         'fp', 'BENCH-${month}-' || g, CASE WHEN s.status = 'SUCCESS' THEN 'OP' || g END, 'SESS' || g, s.pstate, s.txn,
         s.fcode, s.freason, CASE WHEN s.status <> 'PENDING' THEN t.at + interval '40 second' END, t.at, t.at + interval '40 second'
       FROM generate_series($2::int, $3::int) g
       CROSS JOIN LATERAL (SELECT $4::timestamptz + (g::float8 / $5::float8) * ($6::timestamptz - $4::timestamptz) AS at) t
       CROSS JOIN LATERAL (SELECT CASE g % 3 WHEN 0 THEN 'CI' WHEN 1 THEN 'SN' ELSE 'CM' END AS country,
                                  CASE g % 3 WHEN 2 THEN 'XAF' ELSE 'XOF' END AS currency,
                                  CASE g % 3 WHEN 0 THEN '+2250707' WHEN 1 THEN '+2217712' ELSE '+2376771' END || lpad((g % 1000000)::text, 6, '0') AS msisdn) c
       CROSS JOIN LATERAL (SELECT
           CASE WHEN g % 10 < 7 THEN 'SUCCESS' WHEN g % 10 < 9 THEN 'FAILED' ELSE 'PENDING' END AS status,
           CASE WHEN g % 10 < 7 THEN 'OK' WHEN g % 10 < 9 THEN 'canceled' ELSE 'PENDING' END AS pstate,
           CASE WHEN g % 10 < 7 THEN '200' WHEN g % 10 = 7 THEN '54321' END AS txn,
           CASE WHEN g % 10 = 7 THEN 'INSUFFICIENT_BALANCE' WHEN g % 10 = 8 THEN 'CUSTOMER_DID_NOT_VALIDATE' END AS fcode,
           CASE WHEN g % 10 = 7 THEN '60019' END AS freason) s`,
      [merchantId, offset + 1, Math.min(offset + chunk, count), `${month}-01T00:00:00Z`, count + 1, nextMonth(month)],
    );
  }
  await sql.query('VACUUM ANALYZE transactions');
  return (performance.now() - started) / 1000;
}

export function nextMonth(month: string): string {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString();
}
