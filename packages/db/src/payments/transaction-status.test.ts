import { randomUUID } from 'node:crypto';
import { createTestDatabase, smallTablePlans, type TestDatabase } from '@mm/testing/test-database';
import { createDb, rawAccessOf, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { readTransactionStatus, STATUS_READ_BATCH } from './transaction-status.js';

let database: TestDatabase;
let db: Db;
let merchantA: string;
let merchantB: string;
const queries: string[] = [];

const COLUMNS = {
  id: true,
  merchantOrderId: true,
  type: true,
  status: true,
  amount: true,
  currency: true,
  countryCode: true,
  providerReference: true,
  providerTxId: true,
  providerSessionId: true,
  providerState: true,
  providerTxnStatus: true,
  failureCode: true,
  failureReason: true,
  refundedAmount: true,
  completedAt: true,
  operator: true,
  customerAction: true,
  paymentLinkId: true,
} as const;

async function insert(
  merchantId: string,
  row: {
    status: string;
    amount: string;
    refunded?: string;
    completedAt?: string | null;
    action?: unknown;
    provider?: boolean;
  },
) {
  const id = randomUUID();
  await db.$executeRawUnsafe(
    `INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, request_fingerprint,
       provider_reference, provider_tx_id, provider_session_id, provider_state, provider_txn_status, failure_code, failure_reason,
       refunded_amount, refund_reserved_amount, completed_at, customer_action, operator)
     VALUES ($1::uuid, $2::uuid, $3, 'CASHIN', $4, $5::bigint, 'XOF', 'CI', '+2250707000001', 'fp', $6, $7, $8, $9, $10, $11, $12, $13::bigint, $13::bigint,
       $14::timestamptz, $15::jsonb, 'MTN')`,
    id,
    merchantId,
    `o-${id}`,
    row.status,
    row.amount,
    `REF-${id}`,
    row.provider ? 'tx-1' : null,
    row.provider ? 'sess-1' : null,
    row.provider ? 'SUCCESSFUL' : null,
    row.provider ? '200' : null,
    row.status === 'FAILED' ? 'PAYER_DECLINED' : null,
    row.status === 'FAILED' ? 'the payer said "no" \u00e9' : null,
    row.refunded ?? '0',
    row.completedAt ?? null,
    row.action === undefined ? null : JSON.stringify(row.action),
  );
  return id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2, onQuery: (q) => queries.push(q) });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  merchantA = (await createMerchant(db, { name: 'Status A', webhookUrl: null })).id;
  merchantB = (await createMerchant(db, { name: 'Status B', webhookUrl: null })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

describe('readTransactionStatus', () => {
  it.each([
    ['a pending cash-in', { status: 'PENDING', amount: '1000' }],
    [
      'a success with a redirect, refunded in part, amounts past 2^53',
      {
        status: 'SUCCESS',
        amount: '9007199254740993',
        refunded: '7',
        completedAt: '2026-02-03T04:05:06.789Z',
        action: { type: 'REDIRECT', url: 'https://pay.example/x?a=1' },
        provider: true,
      },
    ],
    [
      'a failure with text to escape',
      {
        status: 'FAILED',
        amount: '1',
        completedAt: '2026-12-31T23:59:59.999Z',
        action: { type: 'OTP', ussd: '*144#' },
      },
    ],
  ])('reads %s exactly as Prisma reads it', async (_what, row) => {
    const id = await insert(merchantA, row);
    const viaPrisma = await db.transaction.findFirst({ where: { id, merchantId: merchantA }, select: COLUMNS });
    const read = await readTransactionStatus(db, id, merchantA);
    expect(read).toEqual(viaPrisma);
    expect(Object.keys(read!).sort()).toEqual(Object.keys(COLUMNS).sort());
  });

  it("answers null for another merchant's transaction and for an unknown id", async () => {
    const id = await insert(merchantA, { status: 'PENDING', amount: '5' });
    expect(await readTransactionStatus(db, id, merchantB)).toBeNull();
    expect(await readTransactionStatus(db, randomUUID(), merchantA)).toBeNull();
  });

  it("answers every read asked for in one turn with one statement on the client's own pool, each read its own row", async () => {
    const { pool } = rawAccessOf(db);
    const a1 = await insert(merchantA, { status: 'PENDING', amount: '5' });
    const a2 = await insert(merchantA, { status: 'SUCCESS', amount: '6', completedAt: '2026-01-01T00:00:00.000Z' });
    const b1 = await insert(merchantB, { status: 'FAILED', amount: '7', completedAt: '2026-01-01T00:00:00.000Z' });
    const before = queries.length;
    const reads = await Promise.all([
      readTransactionStatus(db, a1, merchantA),
      readTransactionStatus(db, b1, merchantA),
      readTransactionStatus(db, a2, merchantA),
      readTransactionStatus(db, randomUUID(), merchantA),
      readTransactionStatus(db, b1, merchantB),
      readTransactionStatus(db, a1, merchantA),
    ]);
    expect(reads.map((r) => r && [r.id, r.amount])).toEqual([[a1, 5n], null, [a2, 6n], null, [b1, 7n], [a1, 5n]]);
    expect(pool.totalCount).toBeLessThanOrEqual(2);
    expect(queries.slice(before)).toHaveLength(1);
  });

  it(`sends a read asked for alone at once, and past ${STATUS_READ_BATCH} reads in one turn the rest in further statements`, async () => {
    const id = await insert(merchantA, { status: 'PENDING', amount: '8' });
    let before = queries.length;
    expect((await readTransactionStatus(db, id, merchantA))?.id).toBe(id);
    expect(queries.length - before).toBe(1);
    before = queries.length;
    const reads = await Promise.all(
      Array.from({ length: STATUS_READ_BATCH + 1 }, () => readTransactionStatus(db, id, merchantA)),
    );
    expect(reads.every((r) => r?.id === id)).toBe(true);
    expect(queries.length - before).toBe(2);
  });

  it('fails every read of a statement that fails, and the next turn reads again', async () => {
    const id = await insert(merchantA, { status: 'PENDING', amount: '9' });
    // Not a UUID: the route never sends one (it answers 404 first); here it breaks its whole statement.
    const reads = await Promise.allSettled([
      readTransactionStatus(db, id, merchantA),
      readTransactionStatus(db, 'not-a-uuid', merchantA),
    ]);
    expect(reads.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((await readTransactionStatus(db, id, merchantA))?.id).toBe(id);
  });

  it('finds each row by its key, also in the plan PostgreSQL keeps for the statement once the table has grown past what its statistics say', async () => {
    // As moveNow's test: the generic plan from the first run on, made on a small table never analysed.
    const plans = await smallTablePlans({ db, database }, 'transactions');
    try {
      const first = await insert(merchantA, { status: 'PENDING', amount: '1' });
      await Promise.all([
        readTransactionStatus(plans.db, first, merchantA),
        readTransactionStatus(plans.db, first, merchantB),
      ]);
      const made = await Promise.all(
        Array.from({ length: 300 }, () => insert(merchantA, { status: 'PENDING', amount: '2' })),
      );
      const before = await plans.rowsRead();
      for (let i = 0; i < 20; i++) {
        const batch = made.slice(i * 10, i * 10 + 10);
        const reads = await Promise.all(batch.map((id) => readTransactionStatus(plans.db, id, merchantA)));
        expect(reads.map((r) => r?.id)).toEqual(batch);
      }
      // By key, 200 rows; through a scan of the table, or of the merchant's rows, 20 × 300 or more.
      expect((await plans.rowsRead()) - before).toBeLessThan(300);
    } finally {
      await plans.close();
    }
  });
});
