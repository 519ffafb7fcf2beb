/**
 * The ceiling (issue 7): the least a server can do for a cash-in or a status read on this machine. A
 * bare node:http server with a pg pool the size of a service's (DB_POOL_SIZE, 10): POST /rows parses
 * the JSON body and does one INSERT (autocommit, so one COMMIT) per request; GET /rows/:id does one
 * SELECT by primary key. No framework, no validation, no logging. It prints its URL on stdout.
 */
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 10) });
await pool.query(`CREATE TABLE IF NOT EXISTS bench_ceiling (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(), merchant_order_id text NOT NULL, amount bigint NOT NULL,
  msisdn text NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);

const server = createServer((req, res) => {
  const answer = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const fail = (err: unknown) => answer(500, { error: String(err) });
  if (req.method === 'POST' && req.url === '/rows') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const b = JSON.parse(Buffer.concat(chunks).toString()) as { merchant_order_id: string; amount: number; customer_msisdn: string };
      pool.query<{ id: string }>('INSERT INTO bench_ceiling (merchant_order_id, amount, msisdn, status) VALUES ($1, $2, $3, $4) RETURNING id',
        [b.merchant_order_id, b.amount, b.customer_msisdn, 'PENDING'])
        .then((r) => answer(202, { data: { id: r.rows[0]!.id, status: 'PENDING' } }), fail);
    });
    return;
  }
  const read = /^\/rows\/([0-9a-f-]{36})$/.exec(req.url ?? '');
  if (req.method === 'GET' && read) {
    pool.query('SELECT * FROM bench_ceiling WHERE id = $1', [read[1]])
      .then((r) => (r.rows[0] ? answer(200, { data: r.rows[0] }) : answer(404, { error: 'not found' })), fail);
    return;
  }
  answer(404, { error: 'not found' });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => void pool.end()));
