/**
 * The portal's home figures for a merchant with a long history: the read goes through the merchant's index and
 * reads the rows of the 30-day window only, never the merchant's history or the table. Counted from PostgreSQL's
 * own statistics around the real statement, as merchant-payment-plans.test.ts does; the same plan was checked
 * with EXPLAIN at 300 000 rows (docs/merchant-portal/money.md). ACTIVITY_PLAN_ROWS=300000 runs it at that size
 * and prints the plan.
 */
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { activityWindow, merchantActivity } from './merchant-activity.js';
import { tableStats } from '../testing/index.js';

const ROWS = Number(process.env.ACTIVITY_PLAN_ROWS ?? 20_000);
// A year of history; the big merchant holds a fifth of the table (the others the rest), and the window is about a
// twelfth of each merchant's rows. Where one merchant holds most of the table, the planner may rather walk the
// window of transactions_created_idx (also accepted): it then reads the window's rows of every merchant, still
// a twelfth of the table.
const HISTORY_DAYS = 360;
const NOW = new Date('2031-12-27T12:00:00Z');
const WINDOW_INDEXES = [
  'transactions_merchant_created_idx',
  'transactions_merchant_status_created_idx',
  'transactions_created_idx',
];

let database: TestDatabase;
let db: Db;
let reader: Db;
let big: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2 });
  reader = createDb({ databaseUrl: database.url, poolSize: 1 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  big = (await createMerchant(db, { name: 'Big shop', webhookUrl: null })).id;
  const others = [
    (await createMerchant(db, { name: 'Other 1', webhookUrl: null })).id,
    (await createMerchant(db, { name: 'Other 2', webhookUrl: null })).id,
  ];
  for (const [merchantId, rows] of [
    [big, ROWS / 5],
    [others[0]!, (ROWS * 2) / 5],
    [others[1]!, (ROWS * 2) / 5],
  ] as const) {
    await db.$executeRawUnsafe(
      `INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn,
         request_fingerprint, provider_reference, operator, failure_code, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'order-' || i, CASE WHEN i % 20 = 0 THEN 'CASHOUT' ELSE 'CASHIN' END,
              CASE WHEN i % 10 = 3 THEN 'FAILED' WHEN i % 50 = 7 THEN 'PENDING' ELSE 'SUCCESS' END,
              100 + (i * 37) % 50000, 'XOF', 'CI', '+22507070' || lpad((i % 90000)::text, 5, '0'), 'fp',
              'REF-' || $1 || '-' || i, CASE WHEN i % 3 = 0 THEN 'ORANGE' ELSE 'MTN' END,
              CASE WHEN i % 10 = 3 THEN 'INSUFFICIENT_BALANCE' END,
              $3::timestamptz - (i * ($4::float8 / $2::int)) * interval '1 day', $3::timestamptz
         FROM generate_series(1, $2::int) AS i`,
      merchantId,
      rows,
      NOW,
      HISTORY_DAYS,
    );
  }
  await db.$executeRawUnsafe('ANALYZE transactions');
});
afterAll(async () => {
  await reader.$disconnect();
  await db.$disconnect();
  await database.drop();
});

const stats = () => tableStats(reader, db, 'transactions');

describe("the home's figures for a merchant with a year of history", () => {
  it("read the merchant's rows of the window through its index, and no other", async () => {
    const window = activityWindow(NOW);
    const before = await stats();
    const activity = await merchantActivity(reader, big, NOW);
    const after = await stats();
    // Counted after the measure, so that its own reads are in neither count.
    const [inWindow] = await db.$queryRaw<{ n: bigint; all: bigint }[]>`
      SELECT count(*) FILTER (WHERE merchant_id = ${big}::uuid) AS n, count(*) AS all FROM transactions
       WHERE created_at >= ${window.from} AND created_at < ${window.until}`;

    if (process.env.ACTIVITY_PLAN_ROWS) {
      const plan = await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN (ANALYZE, BUFFERS)
         SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency, status, failure_code, operator,
                count(*)::int, sum(amount)::bigint
           FROM transactions WHERE merchant_id = $1::uuid AND created_at >= $2 AND created_at < $3 AND type = 'CASHIN'
          GROUP BY 1, 2, 3, 4, 5`,
        big,
        window.from,
        window.until,
      );
      console.log(plan.map((p) => p['QUERY PLAN']).join('\n'));
    }
    expect(activity.days).toHaveLength(30);
    expect(activity.totals.succeeded).toBeGreaterThan(0);
    expect(after.seq - before.seq).toBe(0);
    const used = Object.keys(after.scans).filter((k) => after.scans[k]! > (before.scans[k] ?? 0));
    expect(used.filter((i) => WINDOW_INDEXES.includes(i))).not.toEqual([]);
    // The merchant's rows of the window (cash-outs included: the index has no type), not its year; through
    // the merchant's index (alone, or ANDed with the created_at one), nothing of the others.
    const read = after.rows - before.rows;
    expect(Number(inWindow!.all)).toBeLessThan(ROWS / 10);
    expect(read).toBeLessThanOrEqual(Number(inWindow!.all) + 10);
    if (used.some((i) => i.startsWith('transactions_merchant_')))
      expect(read).toBeLessThanOrEqual(Number(inWindow!.n) + 10);
    if (process.env.ACTIVITY_PLAN_ROWS)
      console.log(
        `${used.join(', ')}: ${read} rows read; the merchant's window ${inWindow!.n}, the table's ${inWindow!.all}`,
      );
  });
});
