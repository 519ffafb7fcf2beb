import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import {
  createExportPool,
  streamTransactionExport,
  type ExportedTransaction,
  type ExportPool,
} from './export-transactions.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';

let database: TestDatabase;
let db: Db;
let pool: ExportPool;
let merchantA: string;
let merchantB: string;

async function insert(
  merchantId: string,
  createdAt: string,
  extra: { id?: string; country?: string; order?: string; operator?: string } = {},
) {
  const id = extra.id ?? randomUUID();
  await pool.query(
    `INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn,
       request_fingerprint, provider_reference, refunded_amount, created_at, updated_at, operator)
     VALUES ($1, $2, $3, 'CASHIN', 'SUCCESS', 9007199254740993, $4, $5, '+2250707000001', 'fp', $6, 0, $7, $7, COALESCE($8, 'SIMULATOR'))`,
    [
      id,
      merchantId,
      extra.order ?? `o-${id}`,
      extra.country === 'CM' ? 'XAF' : 'XOF',
      extra.country ?? 'CI',
      `REF-${id}`,
      createdAt,
      extra.operator ?? null,
    ],
  );
  return id;
}

async function all(stream: Readable): Promise<ExportedTransaction[]> {
  const out: ExportedTransaction[] = [];
  for await (const row of stream) out.push(row as ExportedTransaction);
  return out;
}

const day = (d: string) => new Date(`${d}T00:00:00.000Z`);
const busy = () => pool.totalCount - pool.idleCount;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  merchantA = (await createMerchant(db, { name: 'Export A', webhookUrl: null })).id;
  merchantB = (await createMerchant(db, { name: 'Export B', webhookUrl: null })).id;
  pool = createExportPool({ databaseUrl: database.url, max: 2 });
});
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
  await database.drop();
});

describe('streamTransactionExport', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ids.before = await insert(merchantA, '2026-01-31T23:59:59.999Z');
    ids.first = await insert(merchantA, '2026-02-01T00:00:00.000Z');
    // Same created_at: ordered by id.
    ids.tieHigh = await insert(merchantA, '2026-02-10T12:00:00.000Z', { id: 'ffffffff-0000-4000-8000-000000000000' });
    ids.tieLow = await insert(merchantA, '2026-02-10T12:00:00.000Z', {
      id: '00000000-0000-4000-8000-000000000000',
      country: 'CM',
    });
    ids.last = await insert(merchantA, '2026-02-28T23:59:59.999Z', { country: 'SN', operator: 'ORANGE' });
    ids.after = await insert(merchantA, '2026-03-01T00:00:00.000Z');
    ids.other = await insert(merchantB, '2026-02-15T00:00:00.000Z');
  });

  it('reads the merchant rows of [from, until) in (created_at, id) order, typed like Prisma, and gives the connection back', async () => {
    const rows = await all(
      streamTransactionExport(
        pool,
        { merchantId: merchantA, from: day('2026-02-01'), until: day('2026-03-01') },
        { batchSize: 2 },
      ),
    );
    expect(rows.map((r) => r.id)).toEqual([ids.first, ids.tieLow, ids.tieHigh, ids.last]);
    expect(rows[0]).toEqual({
      id: ids.first,
      merchantOrderId: `o-${ids.first}`,
      type: 'CASHIN',
      status: 'SUCCESS',
      amount: 9007199254740993n,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      providerReference: `REF-${ids.first}`,
      providerTxId: null,
      providerSessionId: null,
      providerState: null,
      providerTxnStatus: null,
      failureCode: null,
      failureReason: null,
      refundedAmount: 0n,
      completedAt: null,
      createdAt: new Date('2026-02-01T00:00:00.000Z'),
      updatedAt: new Date('2026-02-01T00:00:00.000Z'),
      operator: 'SIMULATOR',
      paymentLinkId: null,
    });
    expect(rows.map((r) => r.operator)).toEqual(['SIMULATOR', 'SIMULATOR', 'SIMULATOR', 'ORANGE']);
    expect(busy()).toBe(0);
  });

  it('filters on the country when asked', async () => {
    const rows = await all(
      streamTransactionExport(pool, {
        merchantId: merchantA,
        from: day('2026-01-01'),
        until: day('2026-04-01'),
        countryCode: 'CM',
      }),
    );
    expect(rows.map((r) => r.id)).toEqual([ids.tieLow]);
  });

  it('never returns another merchant rows', async () => {
    const rows = await all(
      streamTransactionExport(pool, { merchantId: merchantB, from: day('2026-01-01'), until: day('2026-04-01') }),
    );
    expect(rows.map((r) => r.id)).toEqual([ids.other]);
  });

  it('closes the connection (stopping the query) when the stream is abandoned half-way', async () => {
    await pool.query(
      `INSERT INTO transactions (merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, request_fingerprint, provider_reference, created_at)
       SELECT $1, 'bulk-' || g, 'CASHIN', 'PENDING', 1000, 'XOF', 'CI', '+2250707000001', 'fp', 'BULK-' || g, '2026-05-01T00:00:00Z'::timestamptz + g * interval '1 ms'
       FROM generate_series(1, 5000) g`,
      [merchantA],
    );
    const stream = streamTransactionExport(
      pool,
      { merchantId: merchantA, from: day('2026-05-01'), until: day('2026-05-02') },
      { batchSize: 100 },
    );
    let seen = 0;
    for await (const _row of stream) {
      if (++seen === 150) break; // break destroys the stream
    }
    expect(seen).toBe(150);
    await new Promise((r) => setTimeout(r, 50));
    expect(busy()).toBe(0);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT id, merchant_order_id%' AND pid <> pg_backend_pid()`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('fails the stream on a database error and gives the connection back', async () => {
    const stream = streamTransactionExport(pool, {
      merchantId: 'not-a-uuid',
      from: day('2026-01-01'),
      until: day('2026-02-01'),
    });
    await expect(all(stream)).rejects.toThrow(/uuid/);
    expect(busy()).toBe(0);
    // The pool still works.
    expect(
      await all(
        streamTransactionExport(pool, { merchantId: merchantB, from: day('2026-02-15'), until: day('2026-02-16') }),
      ),
    ).toHaveLength(1);
  });

  it('fails when no connection can be had', async () => {
    const broken = createExportPool({
      databaseUrl: 'postgresql://postgres@127.0.0.1:1/nowhere',
      connectionTimeoutMs: 500,
    });
    await expect(
      all(
        streamTransactionExport(broken, { merchantId: merchantA, from: day('2026-01-01'), until: day('2026-02-01') }),
      ),
    ).rejects.toThrow();
    await broken.end();
  });
});
