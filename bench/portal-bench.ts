/**
 * The merchant portal on a big merchant (issue 42 point 7): 1 000 000 transactions of one merchant
 * (BENCH_PORTAL_ROWS), then the payments list (first page and pages deep in it), a filtered search and a
 * payment's detail, each asked sequentially over HTTP by a signed-in user, next to the bare indexed
 * SELECT of the same page on the same database in the same run. The portal runs in this process (the
 * requests are one at a time, so the client's share of the CPU does not queue them); its own database
 * and Redis prefix, nothing shared with the system phases.
 */
import pg from 'pg';
import { createDb } from '@mm/db';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createMerchantUser } from '@mm/db/merchant-users';
import { createLogger } from '@mm/observability';
import { parseEnv as portalEnv, startMerchantPortal } from '@mm/merchant-portal';
import { createTestDatabase, createTestRedis, TestClient } from '@mm/testing';
import { insertRows } from './support/insert-transactions.js';
import { percentile } from './support/percentile.js';
import { fmt, type Row } from './support/report.js';

const PASSWORD = 'bench-password-123';
const SAMPLES = Number(process.env.BENCH_PORTAL_SAMPLES ?? 300);
const WARMUP = 30;
const PAGE = 50;

interface Case {
  what: string;
  /** The portal page; `i` varies the cursor or the id between samples. */
  path(i: number): string;
  /** The bare SELECT of the same rows. */
  bare(sql: pg.Pool, i: number): Promise<unknown>;
}

async function timeEach(n: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await run(i);
    ms.push(performance.now() - started);
  }
  return ms;
}

export async function portalBench(rows: number, onProblem: (p: string) => void): Promise<Row[]> {
  if (rows <= 0) return [];
  const database = await createTestDatabase();
  const redis = await createTestRedis();
  const db = createDb({ databaseUrl: database.url, poolSize: 2 });
  const sql = new pg.Pool({ connectionString: database.url, max: 1 });
  const table: Row[] = [];
  try {
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
    const merchantId = (await createMerchant(db, { name: 'Big shop', webhookUrl: null })).id;
    const user = await createMerchantUser(db, {
      merchantId,
      email: 'bench@big-shop.test',
      name: 'Bench',
      role: 'viewer',
      password: PASSWORD,
    });
    const insertS = await insertRows(sql, merchantId, rows, '2025-01');
    table.push({
      what: `portal: insert ${fmt(rows)} transactions of one merchant (SQL)`,
      rate: `${fmt(rows / insertS)} rows/s`,
      latency: `${insertS.toFixed(1)} s`,
      ratio: '',
      target: '',
      notes: 'generate_series, then VACUUM ANALYZE',
    });
    // Cursors and ids spread over the whole table: a deep page must cost what the first one does.
    const sample = (
      await sql.query<{ id: string; created_at: Date }>(
        `SELECT id, created_at FROM transactions WHERE merchant_id = $1 ORDER BY random() LIMIT 200`,
        [merchantId],
      )
    ).rows;
    const at = (i: number) => sample[i % sample.length]!;

    const portal = await startMerchantPortal(
      portalEnv({
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        MERCHANT_PORTAL_PORT: '0',
        MERCHANT_PORTAL_INTERNAL_PORT: '0',
        MASTER_KEY: 'a'.repeat(64),
      }),
      { logger: createLogger('portal-bench', 'warn') },
    );
    try {
      const client = new TestClient(portal.url, { 'accept-language': 'en' }, 'mm_mp_sid');
      const signedIn = await client.logIn(user.email, PASSWORD);
      if (signedIn.status !== 303) throw new Error(`portal sign-in answered ${signedIn.status}`);
      const columns = 'SELECT * FROM transactions';
      const order = `ORDER BY created_at DESC, id DESC LIMIT ${PAGE + 1}`;
      const cases: Case[] = [
        {
          what: 'payments list, first page',
          path: () => '/payments',
          bare: (s) => s.query(`${columns} WHERE merchant_id = $1 ${order}`, [merchantId]),
        },
        {
          what: 'payments list, a page deep in the table',
          path: (i) => `/payments?after=${encodeURIComponent(`${at(i).created_at.toISOString()}_${at(i).id}`)}`,
          bare: (s, i) =>
            s.query(`${columns} WHERE merchant_id = $1 AND (created_at, id) < ($2, $3) ${order}`, [
              merchantId,
              at(i).created_at,
              at(i).id,
            ]),
        },
        {
          what: 'filtered search: FAILED in CI',
          path: () => '/payments?status=FAILED&country=CI',
          bare: (s) =>
            s.query(`${columns} WHERE merchant_id = $1 AND status = 'FAILED' AND country_code = 'CI' ${order}`, [
              merchantId,
            ]),
        },
        {
          what: "a payment's detail",
          path: (i) => `/payments/${at(i).id}`,
          bare: (s, i) => s.query(`${columns} WHERE merchant_id = $1 AND id = $2`, [merchantId, at(i).id]),
        },
      ];
      for (const c of cases) {
        const page = await timeEach(SAMPLES, async (i) => {
          const res = await client.get(c.path(i));
          if (res.status !== 200) onProblem(`portal ${c.what}: ${c.path(i)} answered ${res.status}`);
        });
        const bare = await timeEach(SAMPLES, (i) => c.bare(sql, i));
        const p95 = percentile(page, 95);
        const bareP95 = percentile(bare, 95);
        table.push({
          what: `portal: ${c.what} (${fmt(rows)} rows)`,
          rate: `${fmt(1000 / (page.reduce((a, b) => a + b, 0) / page.length))} req/s, one at a time`,
          latency: `p50 ${percentile(page, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
          ratio: `${(p95 / bareP95).toFixed(1)}× the bare SELECT`,
          target: 'p95 ≤ 200 ms',
          notes: `bare indexed SELECT of the same page: p50 ${percentile(bare, 50).toFixed(2)} ms, p95 ${bareP95.toFixed(2)} ms; ${SAMPLES} samples each`,
        });
        if (p95 > 200) onProblem(`portal ${c.what}: p95 ${p95.toFixed(0)} ms > 200 ms`);
      }
    } finally {
      await portal.stop();
    }
  } finally {
    await sql.end();
    await db.$disconnect();
    await redis.close();
    await database.drop();
  }
  return table;
}
