/**
 * The flow ceiling's tables and statements (flow-ceiling/service.ts): the four-exchange cash-in built
 * bare, one statement per step, raw `pg`, in tables of its own in the bench database. The shapes follow
 * the system's (a transaction row, two journal rows and a webhook event at capture, an attempt row per
 * delivery), with none of its other work: no history, outbox, queue, fingerprint or account balances.
 */
import pg from 'pg';

export function flowPool(): pg.Pool {
  return new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 10) });
}

export async function createFlowTables(pool: pg.Pool): Promise<void> {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS bench_flow_transactions (
      id uuid PRIMARY KEY, merchant_order_id text NOT NULL UNIQUE, amount bigint NOT NULL, msisdn text NOT NULL,
      notify_url text NOT NULL, status text NOT NULL, provider_tx_id text, completed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS bench_flow_journal (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, transaction_id uuid NOT NULL REFERENCES bench_flow_transactions(id),
      account text NOT NULL, amount bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS bench_flow_webhook_events (
      id uuid PRIMARY KEY, transaction_id uuid NOT NULL REFERENCES bench_flow_transactions(id), payload jsonb NOT NULL,
      target_url text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS bench_flow_webhook_attempts (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, event_id uuid NOT NULL REFERENCES bench_flow_webhook_events(id),
      status_code integer, latency_ms integer NOT NULL, success boolean NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
}

export interface FlowCashin {
  id: string;
  merchantOrderId: string;
  amount: number;
  msisdn: string;
  notifyUrl: string;
}

/** The CREATED row, autocommit; false when the merchant_order_id is taken. */
export async function insertCashin(pool: pg.Pool, c: FlowCashin): Promise<boolean> {
  const r = await pool.query(
    `INSERT INTO bench_flow_transactions (id, merchant_order_id, amount, msisdn, notify_url, status) VALUES ($1, $2, $3, $4, $5, 'CREATED')
     ON CONFLICT (merchant_order_id) DO NOTHING`,
    [c.id, c.merchantOrderId, c.amount, c.msisdn, c.notifyUrl],
  );
  return r.rowCount === 1;
}

/** CREATED → PENDING once the operator took the push; false when its callback already moved the row on. */
export async function markPending(pool: pg.Pool, id: string): Promise<boolean> {
  const r = await pool.query(
    `UPDATE bench_flow_transactions SET status = 'PENDING', updated_at = now() WHERE id = $1 AND status = 'CREATED'`,
    [id],
  );
  return r.rowCount === 1;
}

export interface Captured {
  id: string;
  merchantOrderId: string;
  amount: number;
  notifyUrl: string;
  eventId: string;
  /** The webhook's JSON text, as stored in the event row and sent signed. */
  body: string;
}

/**
 * The operator's SUCCESS in one transaction: the row's move (a second callback finds it moved and does
 * nothing), two journal rows, the webhook event row. Null for a callback of a cash-in already decided.
 */
export async function capture(
  pool: pg.Pool,
  id: string,
  providerTxId: string,
  eventId: string,
  payload: (row: Omit<Captured, 'eventId' | 'body'>) => Record<string, unknown>,
): Promise<Captured | null> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const moved = await client.query<{ id: string; merchant_order_id: string; amount: string; notify_url: string }>(
      `UPDATE bench_flow_transactions SET status = 'SUCCESS', provider_tx_id = $2, completed_at = now(), updated_at = now()
       WHERE id = $1 AND status IN ('CREATED', 'PENDING') RETURNING id, merchant_order_id, amount, notify_url`,
      [id, providerTxId],
    );
    const row = moved.rows[0];
    if (!row) {
      await client.query('ROLLBACK');
      return null;
    }
    const captured = {
      id: row.id,
      merchantOrderId: row.merchant_order_id,
      amount: Number(row.amount),
      notifyUrl: row.notify_url,
    };
    await client.query(
      `INSERT INTO bench_flow_journal (transaction_id, account, amount) VALUES ($1, 'operator_float', $2), ($1, 'merchant_balance', $3)`,
      [id, captured.amount, -captured.amount],
    );
    const body = JSON.stringify(payload(captured));
    await client.query(
      'INSERT INTO bench_flow_webhook_events (id, transaction_id, payload, target_url) VALUES ($1, $2, $3, $4)',
      [eventId, id, body, captured.notifyUrl],
    );
    await client.query('COMMIT');
    return { ...captured, eventId, body };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** One delivery attempt, after it (autocommit). */
export async function recordAttempt(
  pool: pg.Pool,
  eventId: string,
  statusCode: number | null,
  latencyMs: number,
): Promise<void> {
  await pool.query(
    'INSERT INTO bench_flow_webhook_attempts (event_id, status_code, latency_ms, success) VALUES ($1, $2, $3, $4)',
    [eventId, statusCode, latencyMs, statusCode !== null && statusCode >= 200 && statusCode < 300],
  );
}

export interface FlowTally {
  /** Cash-ins by status. */
  statuses: Record<string, number>;
  journalRows: number;
  events: number;
  /** Attempts answered 2xx. */
  deliveredAttempts: number;
  failedAttempts: number;
}

/** What the bare flow wrote, for the bench's check that it did all its work. */
export async function flowTally(pool: pg.Pool): Promise<FlowTally> {
  const statuses = await pool.query<{ status: string; n: string }>(
    'SELECT status, count(*) AS n FROM bench_flow_transactions GROUP BY status',
  );
  const [counts] = (
    await pool.query<{ journal: string; events: string; ok: string; failed: string }>(`SELECT
    (SELECT count(*) FROM bench_flow_journal) AS journal, (SELECT count(*) FROM bench_flow_webhook_events) AS events,
    (SELECT count(*) FROM bench_flow_webhook_attempts WHERE success) AS ok, (SELECT count(*) FROM bench_flow_webhook_attempts WHERE NOT success) AS failed`)
  ).rows;
  return {
    statuses: Object.fromEntries(statuses.rows.map((r) => [r.status, Number(r.n)])),
    journalRows: Number(counts?.journal ?? 0),
    events: Number(counts?.events ?? 0),
    deliveredAttempts: Number(counts?.ok ?? 0),
    failedAttempts: Number(counts?.failed ?? 0),
  };
}
