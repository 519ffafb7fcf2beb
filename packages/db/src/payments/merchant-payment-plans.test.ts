/**
 * The portal's payment list and detail for a merchant with a long history: each read goes through an
 * index of the merchant's rows and reads about a page of them, whether it is the first page, a page
 * deep in the history, or a filter few rows match. Counted from PostgreSQL's own statistics (rows read
 * from the table, scans of each index) around the real statements Prisma sends.
 */
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { merchantPaymentDetail, searchMerchantPayments, type MerchantPaymentSearch } from './merchant-payments.js';
import { readsBetween, tableStats } from '../testing/index.js';

// Enough rows that a scan of the merchant's history costs hundreds of times a page (the planner's
// statistics say so after ANALYZE); the same plans were checked with EXPLAIN at 1 000 000 rows
// (docs/merchant-portal.md). The big merchant holds most of the table, as the issue's 1 000 000-row
// merchant would: the unfiltered page may then walk either the merchant's index or the table's own
// created_at index (the planner's pick varies with ANALYZE's sample), and both read about a page.
const ROWS = 20_000;
const OTHERS = ROWS / 4;
const NEWEST_FIRST = ['transactions_merchant_created_idx', 'transactions_created_idx'];
const PAGE = 50;
const LINK = '6c1d2a4e-8f3b-4c5d-9e7f-0a1b2c3d4e5f';

let database: TestDatabase;
let db: Db;
/** One connection, so that its statistics can be flushed before they are read: every read the tests count, and
 * every read they make around those, goes through it (another session's counts arrive late, inside a window). */
let reader: Db;
let big: string;
let other: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2 });
  reader = createDb({ databaseUrl: database.url, poolSize: 1 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  big = (await createMerchant(db, { name: 'Big shop', webhookUrl: null })).id;
  other = (await createMerchant(db, { name: 'Other shop', webhookUrl: null })).id;
  // One reusable payment link of the big merchant.
  await db.$executeRaw`INSERT INTO payment_links (id, merchant_id, slug, description, country_code, currency, amount, reusable)
    VALUES (${LINK}::uuid, ${big}::uuid, 'PlanTestLinkPlanTestLi', 'Cotisation', 'CI', 'XOF', 1000, true)`;
  // Most payments SUCCESS or FAILED, one in 2 000 REVERSED; amounts up to 50 000, one in 2 000 at
  // 2 000 000; one in 400 of the big merchant's through its link; the same months of history for both,
  // so that the merchant's rows are a share of the table's newest ones, as on a service with many merchants.
  // Written in one INSERT each, which reads nothing: an UPDATE's reads, told late by `db`'s session,
  // were counted in a test's window (a number search 'read' 20 001 rows).
  for (const [merchantId, rows] of [
    [big, ROWS],
    [other, OTHERS],
  ] as const) {
    await db.$executeRawUnsafe(
      `INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn,
         request_fingerprint, provider_reference, operator, payment_link_id, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'order-' || i, 'CASHIN',
              CASE WHEN i % 2000 = 7 THEN 'REVERSED' WHEN i % 10 = 3 THEN 'FAILED' ELSE 'SUCCESS' END,
              CASE WHEN i % 2000 = 11 THEN 2000000 ELSE 100 + (i * 37) % 50000 END, 'XOF', 'CI',
              '+22507070' || lpad((i % 90000)::text, 5, '0'), 'fp', 'REF-' || $1 || '-' || i,
              CASE WHEN i % 3 = 0 THEN 'ORANGE' ELSE 'MTN' END,
              CASE WHEN $4::uuid IS NOT NULL AND i % 400 = 5 THEN $4::uuid END,
              timestamptz '2031-01-01' + i * ($3::int * interval '1 second'), timestamptz '2031-01-01'
         FROM generate_series(1, $2::int) AS i`,
      merchantId,
      rows,
      (ROWS * 600) / rows,
      merchantId === big ? LINK : null,
    );
  }
  await db.$executeRawUnsafe('ANALYZE transactions');
});
afterAll(async () => {
  await reader.$disconnect();
  await db.$disconnect();
  await database.drop();
});

/** What `work` read from transactions: rows, sequential scans, and the indexes it scanned. */
async function readsOf(work: () => Promise<unknown>) {
  const before = await tableStats(reader, db, 'transactions');
  await work();
  return readsBetween(before, await tableStats(reader, db, 'transactions'));
}

const list = (q: MerchantPaymentSearch, after?: { createdAt: Date; id: string }) =>
  searchMerchantPayments(reader, big, q, { limit: PAGE, after });

describe("a merchant's payments with a long history", () => {
  it('the newest page, and a page deep in the history, read about a page through an index in created_at order', async () => {
    const first = await readsOf(() => list({}));
    expect(first.seqScans).toBe(0);
    expect(first.indexes.filter((i) => NEWEST_FIRST.includes(i))).toHaveLength(1);
    expect(first.rows).toBeLessThan(3 * PAGE);

    // Half-way down: the cursor of a row in the middle of the merchant's history.
    const [middle] = await reader.$queryRaw<{ id: string; created_at: Date }[]>`
      SELECT id, created_at FROM transactions WHERE merchant_id = ${big}::uuid AND merchant_order_id = ${`order-${ROWS / 2}`}`;
    let page: Awaited<ReturnType<typeof list>> | undefined;
    const deep = await readsOf(async () => {
      page = await list({}, { createdAt: middle!.created_at, id: middle!.id });
    });
    expect(page!.rows).toHaveLength(PAGE);
    expect(page!.rows[0]!.createdAt < middle!.created_at).toBe(true);
    expect(deep.seqScans).toBe(0);
    expect(deep.indexes.filter((i) => NEWEST_FIRST.includes(i))).toHaveLength(1);
    expect(deep.rows).toBeLessThan(3 * PAGE);
  });

  it.each<[string, MerchantPaymentSearch, string[]]>([
    ['a rare status', { status: 'REVERSED' }, ['transactions_merchant_status_created_idx']],
    ['a rare amount range', { amountMin: 1_000_000n }, ['transactions_merchant_amount_created_idx']],
    ['a customer number', { msisdn: '+2250707012345' }, ['transactions_msisdn_idx']],
    ['a payment link', { paymentLinkId: LINK }, ['transactions_payment_link_idx']],
    // Either serves: an order id names one row of each merchant at most.
    [
      'an order id',
      { merchantOrderId: 'order-1234' },
      ['transactions_merchant_order_key', 'transactions_order_id_idx'],
    ],
  ])('a filter on %s reads the matching rows through an index', async (_name, q, indexes) => {
    let found = 0;
    const reads = await readsOf(async () => {
      found = (await list(q)).rows.length;
    });
    expect(found).toBeGreaterThan(0);
    expect(reads.seqScans).toBe(0);
    expect(reads.indexes.filter((i) => indexes.includes(i))).not.toEqual([]);
    expect(reads.rows).toBeLessThan(3 * PAGE);
  });

  it('a common status and a date range read about a page through the merchant index', async () => {
    const reads = await readsOf(() =>
      list({ status: 'SUCCESS', from: new Date('2031-03-01T00:00:00Z'), to: new Date('2031-04-01T00:00:00Z') }),
    );
    expect(reads.seqScans).toBe(0);
    expect(reads.rows).toBeLessThan(3 * PAGE);
  });

  it('the detail reads the payment by its key, and nothing of another merchant', async () => {
    const [row] = await reader.$queryRaw<{ id: string }[]>`
      SELECT id FROM transactions WHERE merchant_id = ${big}::uuid AND merchant_order_id = 'order-77'`;
    const reads = await readsOf(() => merchantPaymentDetail(reader, big, row!.id));
    expect(reads.seqScans).toBe(0);
    expect(reads.rows).toBeLessThan(5);
    expect(await merchantPaymentDetail(reader, other, row!.id)).toBeNull();
    expect(await merchantPaymentDetail(reader, big, randomUUID())).toBeNull();
  });
});
