/**
 * The one table, pool and two statements of the ceiling, shared by the bare server and the Express
 * floor so that the two measure the same database work and differ only by the HTTP layer.
 */
import pg from 'pg';

export function ceilingPool(): pg.Pool {
  return new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 10) });
}

export async function createCeilingTable(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS bench_ceiling (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), merchant_order_id text NOT NULL, amount bigint NOT NULL,
    msisdn text NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
}

export interface CeilingBody {
  merchant_order_id: string;
  amount: number;
  customer_msisdn: string;
}

/** One INSERT, autocommit (one COMMIT); the new row's id. */
export async function insertRow(pool: pg.Pool, b: CeilingBody): Promise<string> {
  const r = await pool.query<{ id: string }>(
    'INSERT INTO bench_ceiling (merchant_order_id, amount, msisdn, status) VALUES ($1, $2, $3, $4) RETURNING id',
    [b.merchant_order_id, b.amount, b.customer_msisdn, 'PENDING'],
  );
  return r.rows[0]!.id;
}

/** One SELECT by primary key. */
export async function selectRow(pool: pg.Pool, id: string): Promise<Record<string, unknown> | undefined> {
  const r = await pool.query('SELECT * FROM bench_ceiling WHERE id = $1', [id]);
  return r.rows[0] as Record<string, unknown> | undefined;
}
