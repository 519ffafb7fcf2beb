import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, rawAccessOf, type Db } from './client.js';
import { createMerchant } from './merchants.js';
import { SEED_SUBSIDIARIES, upsertSubsidiary } from './subsidiaries.js';
import { readTransactionStatus } from './transaction-status.js';

let database: TestDatabase;
let db: Db;
let merchantA: string;
let merchantB: string;
const queries: string[] = [];

const COLUMNS = {
  id: true, merchantOrderId: true, type: true, status: true, amount: true, currency: true, countryCode: true, providerReference: true,
  providerTxId: true, providerSessionId: true, providerState: true, providerTxnStatus: true, failureCode: true, failureReason: true,
  refundedAmount: true, completedAt: true, operator: true, customerAction: true,
} as const;

async function insert(merchantId: string, row: { status: string; amount: string; refunded?: string; completedAt?: string | null; action?: unknown; provider?: boolean }) {
  const id = randomUUID();
  await db.$executeRawUnsafe(
    `INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, request_fingerprint,
       provider_reference, provider_tx_id, provider_session_id, provider_state, provider_txn_status, failure_code, failure_reason,
       refunded_amount, refund_reserved_amount, completed_at, customer_action, operator)
     VALUES ($1::uuid, $2::uuid, $3, 'CASHIN', $4, $5::bigint, 'XOF', 'CI', '+2250707000001', 'fp', $6, $7, $8, $9, $10, $11, $12, $13::bigint, $13::bigint,
       $14::timestamptz, $15::jsonb, 'MTN')`,
    id, merchantId, `o-${id}`, row.status, row.amount, `REF-${id}`,
    row.provider ? 'tx-1' : null, row.provider ? 'sess-1' : null, row.provider ? 'SUCCESSFUL' : null, row.provider ? '200' : null,
    row.status === 'FAILED' ? 'PAYER_DECLINED' : null, row.status === 'FAILED' ? 'the payer said "no" \u00e9' : null,
    row.refunded ?? '0', row.completedAt ?? null, row.action === undefined ? null : JSON.stringify(row.action),
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
    ['a success with a redirect, refunded in part, amounts past 2^53', {
      status: 'SUCCESS', amount: '9007199254740993', refunded: '7', completedAt: '2026-02-03T04:05:06.789Z',
      action: { type: 'REDIRECT', url: 'https://pay.example/x?a=1' }, provider: true,
    }],
    ['a failure with text to escape', { status: 'FAILED', amount: '1', completedAt: '2026-12-31T23:59:59.999Z', action: { type: 'OTP', ussd: '*144#' } }],
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

  it("is sent on the client's own pool (no connection of its own) and reported to onQuery", async () => {
    const { pool } = rawAccessOf(db);
    const before = queries.length;
    const id = await insert(merchantA, { status: 'PENDING', amount: '5' });
    await Promise.all(Array.from({ length: 6 }, () => readTransactionStatus(db, id, merchantA)));
    expect(pool.totalCount).toBeLessThanOrEqual(2);
    expect(queries.slice(before).filter((q) => q.includes('FROM transactions WHERE id = $1 AND merchant_id = $2'))).toHaveLength(6);
  });
});
