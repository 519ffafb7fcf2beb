/**
 * The monthly statement of a merchant with a long ledger: it reads the journal entries of its accounts since the
 * month's first instant through journal_entries_account_created_idx, not every entry the accounts ever had.
 * Counted from PostgreSQL's own statistics around the real statement (as merchant-payment-plans.test.ts does);
 * STATEMENT_PLAN_ROWS=300000 runs it at that size and prints the plan (docs/merchant-portal/money.md has it).
 */
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { monthlyStatement, statementMonth } from './monthly-statement.js';
import { tableStats } from '../testing/index.js';

const JOURNALS = Number(process.env.STATEMENT_PLAN_ROWS ?? 20_000) / 2;
const HISTORY_DAYS = 360;
const END = new Date('2031-12-31T12:00:00Z');
const MONTH = statementMonth('2031-11')!;

let database: TestDatabase;
let db: Db;
let reader: Db;
let merchant: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2 });
  reader = createDb({ databaseUrl: database.url, poolSize: 1 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  merchant = (await createMerchant(db, { name: 'Long ledger', webhookUrl: null })).id;
  // A year of captures through the ledger's own function (two lines each, consecutive ids), a thousand
  // journals a transaction (the balance row is booked once per entry at commit: one huge transaction crawls),
  // then spread over the year.
  for (let done = 0; done < JOURNALS; done += 1000) {
    await db.$executeRawUnsafe(
      `SELECT ledger_post(gen_random_uuid(), $1::uuid, 'CI', 'XOF', 'CASHIN_LATE_CAPTURED', NULL, NULL,
                          '[{"account":"MERCHANT_AVAILABLE","amount":100},{"account":"OPERATOR_RECEIVABLE","amount":-100}]'::jsonb)
         FROM generate_series(1, $2::int)`,
      merchant,
      Math.min(1000, JOURNALS - done),
    );
  }
  await db.$executeRawUnsafe(
    `UPDATE journal_entries SET created_at = $1::timestamptz - ((id / 2) * ($2::float8 / $3::int)) * interval '1 day'`,
    END,
    HISTORY_DAYS,
    JOURNALS,
  );
  await db.$executeRawUnsafe('ANALYZE journal_entries');
  await db.$executeRawUnsafe('ANALYZE ledger_accounts');
});
afterAll(async () => {
  await reader.$disconnect();
  await db.$disconnect();
  await database.drop();
});

const stats = () => tableStats(reader, db, 'journal_entries');

describe('the monthly statement of a long ledger', () => {
  it("reads the merchant's entries since the month's start through the account and time index", async () => {
    const before = await stats();
    const rows = await monthlyStatement(reader, merchant, MONTH);
    const after = await stats();
    // Counted after the measure, so that its own reads are in neither count.
    const [since] = await db.$queryRaw<{ n: bigint; all: bigint }[]>`
      SELECT count(*) FILTER (WHERE e.created_at >= ${MONTH.start}) AS n, count(*) AS all
        FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
       WHERE a.merchant_id = ${merchant}::uuid`;
    if (process.env.STATEMENT_PLAN_ROWS) {
      const plan = await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN (ANALYZE, BUFFERS)
         SELECT a.country_code, sum(e.amount) FROM ledger_accounts a
           JOIN journal_entries e ON e.account_id = a.id AND e.created_at >= $2
          WHERE a.merchant_id = $1::uuid AND a.kind = ANY('{MERCHANT_AVAILABLE,MERCHANT_REFUND_RESERVED,MERCHANT_CASHOUT_RESERVED}')
          GROUP BY a.country_code`,
        merchant,
        MONTH.start,
      );
      console.log(plan.map((p) => p['QUERY PLAN']).join('\n'));
    }
    const ci = rows.find((r) => r.countryCode === 'CI')!;
    expect(ci.opening + ci.collected).toBe(ci.closing);
    expect(ci.collected).toBeGreaterThan(0n);

    const read = after.rows - before.rows;
    const used = Object.keys(after.scans).filter((k) => after.scans[k]! > (before.scans[k] ?? 0));
    if (process.env.STATEMENT_PLAN_ROWS)
      console.log(`${used.join(', ')}: ${read} rows read; ${since!.n} since the start, ${since!.all} in all`);
    expect(after.seq - before.seq).toBe(0);
    expect(used).toContain('journal_entries_account_created_idx');
    expect(read).toBeLessThanOrEqual(Number(since!.n) + 10);
    expect(Number(since!.n)).toBeLessThan(Number(since!.all) / 4);
  });
});
