import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { createCashin } from './create-cashin.js';
import { searchTransactions } from './search-transactions.js';
import { transactionTimeline } from './transaction-timeline.js';
import { transition } from './moves/transition.js';
import { listProblemDeliveries } from '../webhooks/index.js';

let database: TestDatabase;
let db: Db;
let shopA: string;
let shopB: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 4 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  shopA = (await createMerchant(db, { name: 'Shop A', webhookUrl: 'https://a.example/hooks' })).id;
  shopB = (await createMerchant(db, { name: 'Shop B', webhookUrl: null })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

async function cashin(merchantId: string, orderId: string, msisdn: string, countryCode = 'CI') {
  const r = await createCashin(db, {
    merchantId,
    merchantOrderId: orderId,
    amount: 1000,
    currency: countryCode === 'CM' ? 'XAF' : 'XOF',
    countryCode,
    msisdn,
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (r.kind !== 'created') throw new Error('setup');
  return r.transaction;
}

describe('back-office transaction search', () => {
  it('filters by id, order id, number, status, merchant, country and date, and pages newest first', async () => {
    const run = randomUUID().slice(0, 8);
    const a1 = await cashin(shopA, `${run}-1`, '+2250707000101');
    const a2 = await cashin(shopA, `${run}-2`, '+2250707000102');
    const b1 = await cashin(shopB, `${run}-1`, '+237690000101', 'CM');
    await db.$transaction((tx) => transition(tx, { transactionId: a2.id, to: 'FAILED', cause: 'test' }));
    const ids = async (q: Parameters<typeof searchTransactions>[1]) =>
      (await searchTransactions(db, q, { limit: 50 })).rows.map((r) => r.id);

    expect(await ids({ id: a1.id })).toEqual([a1.id]);
    expect(new Set(await ids({ merchantOrderId: `${run}-1` }))).toEqual(new Set([a1.id, b1.id]));
    expect(await ids({ msisdn: '+2250707000102' })).toEqual([a2.id]);
    expect(await ids({ status: 'FAILED', merchantId: shopA })).toEqual([a2.id]);
    expect(await ids({ countryCode: 'CM', merchantOrderId: `${run}-1` })).toEqual([b1.id]);
    expect(await ids({ merchantId: shopB, from: new Date(b1.createdAt.getTime() + 1) })).toEqual([]);
    expect(await ids({ merchantId: shopB, to: new Date(b1.createdAt.getTime() + 1) })).toContain(b1.id);

    const first = await searchTransactions(db, { merchantId: shopA }, { limit: 1 });
    expect(first.rows.map((r) => r.id)).toEqual([a2.id]);
    expect(first.rows[0]!.merchant.name).toBe('Shop A');
    const second = await searchTransactions(db, { merchantId: shopA }, { limit: 1, after: first.next! });
    expect(second.rows.map((r) => r.id)).toEqual([a1.id]);
  });

  it('the timeline lists state changes with what the operator said, and webhook attempts with their status code', async () => {
    const t = await cashin(shopA, `tl-${randomUUID()}`, '+2250707000103');
    await db.$transaction((tx) => transition(tx, { transactionId: t.id, to: 'INITIATED', cause: 'operator-request' }));
    await db.$transaction((tx) =>
      transition(tx, {
        transactionId: t.id,
        to: 'FAILED',
        cause: 'operator-result:callback',
        patch: {
          providerState: 'canceled',
          providerTxnStatus: '54321',
          failureCode: 'INSUFFICIENT_BALANCE',
          failureReason: '60019',
        },
      }),
    );
    const event = await db.webhookEvent.findFirstOrThrow({ where: { transactionId: t.id } });
    await db.webhookAttempt.create({
      data: {
        eventId: event.id,
        attemptNo: 1,
        targetUrl: 'https://a.example/hooks',
        statusCode: 500,
        latencyMs: 12,
        success: false,
        error: 'HTTP 500',
      },
    });
    await db.webhookEvent.update({ where: { id: event.id }, data: { attemptCount: 1 } });

    const tl = await transactionTimeline(db, t.id);
    expect(tl!.items.map((i) => (i.kind === 'state' ? `${i.from}->${i.to}` : i.kind))).toEqual([
      'null->CREATED',
      'CREATED->INITIATED',
      'INITIATED->FAILED',
      'webhook',
    ]);
    expect(tl!.items[2]).toMatchObject({
      cause: 'operator-result:callback',
      detail: { provider_state: 'canceled', provider_txn_status: '54321', failure_reason: '60019' },
    });
    expect(tl!.items[3]).toMatchObject({ kind: 'webhook', statusCode: 500, attemptNo: 1, success: false });
    expect(await transactionTimeline(db, randomUUID())).toBeNull();

    const failing = await listProblemDeliveries(db, { problem: 'failing', merchantId: shopA, limit: 10 });
    expect(failing.map((e) => e.id)).toEqual([event.id]);
    expect(failing[0]!.attempts[0]!.statusCode).toBe(500);
    expect(await listProblemDeliveries(db, { problem: 'abandoned', merchantId: shopA, limit: 10 })).toEqual([]);
  });
});
