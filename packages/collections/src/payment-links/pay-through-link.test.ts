import { createDb, type Db } from '@mm/db';
import { findPaymentLinkBySlug, insertPaymentLink, type PaymentLinkRecord } from '@mm/db/payment-links';
import { moveNow } from '@mm/db/payments';
import { PaymentLinkRefused } from '@mm/domain';
import {
  AfterCommit,
  createRedisConnection,
  OutboxPublisher,
  TransactionUpdateWaiter,
  type RedisClient,
} from '@mm/queues';
import { createMerchantTestDatabase, createTestRedis, type MerchantTestDatabase, type TestRedis } from '@mm/testing';
import type { InitiateCashinDeps } from '../cashins/initiate-cashin.js';
import { payThroughLink } from './pay-through-link.js';

/**
 * Customers paying through a link at the same moment, on the real database: a link's places are taken
 * under its row lock with the cash-in's insert, so a single-use link lets exactly one payment start and
 * a capped reusable link exactly its cap; what is refused writes nothing (no transaction, no outbox
 * job: nothing reaches an operator). A failed attempt gives its place back.
 */
describe('payThroughLink: concurrent customers', () => {
  let fixture: MerchantTestDatabase;
  let redis: TestRedis;
  let db: Db;
  let publisher: RedisClient;
  let waiter: TransactionUpdateWaiter;

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    redis = await createTestRedis();
    // As many connections as customers: every submission is in the database at once, racing for the lock.
    db = createDb({ databaseUrl: fixture.database.url, poolSize: 20 });
    publisher = createRedisConnection(redis.url);
    waiter = await TransactionUpdateWaiter.start(createRedisConnection(redis.url), redis.prefix);
  });
  afterAll(async () => {
    await waiter.close();
    publisher.disconnect();
    await db.$disconnect();
    await redis.close();
    await fixture.close();
  });

  // No bridge: the jobs stay in the outbox, where the test counts them; no wait for an acknowledgement.
  const deps = (): InitiateCashinDeps => ({
    db,
    afterCommit: new AfterCommit(new OutboxPublisher([]), publisher, redis.prefix),
    waiter,
    limits: { min: 100, max: 1_000_000 },
    ackWaitMs: 0,
    isActiveCountry: async () => true,
    operators: { route: async () => ({ kind: 'routed', operator: 'SIMULATOR' }), unavailableRetryAfterS: 30 },
  });

  async function link(terms: { reusable: boolean; maxPayments: number | null }): Promise<PaymentLinkRecord> {
    const created = await insertPaymentLink(
      db,
      {
        merchantId: fixture.merchantId,
        description: 'Robe wax',
        countryCode: 'CI',
        currency: 'XOF',
        amount: { kind: 'fixed', amount: 5000 },
        redirectUrl: null,
        metadata: { sku: 'RW-1' },
        expiresAt: null,
        ...terms,
      },
      new Date(),
    );
    return (await findPaymentLinkBySlug(db, created.slug, new Date()))!;
  }

  const customers = (l: PaymentLinkRecord, n: number) =>
    Promise.allSettled(
      Array.from({ length: n }, (_, i) =>
        payThroughLink(deps(), l, { msisdn: `07070000${String(i).padStart(2, '0')}` }, []),
      ),
    );

  async function written(linkId: string) {
    const rows = await fixture.db.$queryRaw<
      { id: string; status: string; order: string; motif: string; metadata: unknown }[]
    >`
      SELECT id, status, merchant_order_id AS "order", motif, metadata FROM transactions WHERE payment_link_id = ${linkId}::uuid`;
    const [jobs] = await fixture.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM outbox o JOIN transactions t ON t.id = (o.payload->>'transaction_id')::uuid
      WHERE t.payment_link_id = ${linkId}::uuid`;
    return { rows, jobs: jobs!.n };
  }

  it('a single-use link: of 20 customers at once one payment starts, 19 are told BUSY and nothing of theirs is written', async () => {
    const l = await link({ reusable: false, maxPayments: 1 });
    const results = await customers(l, 20);
    const started = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const err of refused) {
      expect(err).toBeInstanceOf(PaymentLinkRefused);
      expect((err as PaymentLinkRefused).reason).toBe('BUSY');
    }
    const { rows, jobs } = await written(l.id);
    expect(rows).toHaveLength(1);
    expect(jobs).toBe(1);
    expect(rows[0]).toMatchObject({ status: 'CREATED', motif: 'Robe wax', metadata: { sku: 'RW-1' } });
    expect(rows[0]!.order).toMatch(/^link-[A-Za-z0-9_-]{16}$/);
  });

  it('a failed attempt frees the single-use link; once paid, the next customer is told COMPLETED', async () => {
    const l = await link({ reusable: false, maxPayments: 1 });
    const first = await payThroughLink(deps(), l, { msisdn: '0707000001' }, []);
    await expect(payThroughLink(deps(), l, { msisdn: '0707000002' }, [])).rejects.toMatchObject({ reason: 'BUSY' });
    await moveNow(fixture.db, { transactionId: first.transactionId, to: 'FAILED', ofType: 'CASHIN', cause: 'test' });
    const second = await payThroughLink(deps(), l, { msisdn: '0707000002' }, []);
    await moveNow(fixture.db, {
      transactionId: second.transactionId,
      to: 'INITIATED',
      ofType: 'CASHIN',
      cause: 'test',
    });
    await moveNow(fixture.db, { transactionId: second.transactionId, to: 'SUCCESS', ofType: 'CASHIN', cause: 'test' });
    // The page's record is read before the lock; the lock's count is what refuses.
    await expect(payThroughLink(deps(), l, { msisdn: '0707000003' }, [])).rejects.toMatchObject({
      reason: 'COMPLETED',
    });
    expect((await written(l.id)).rows.map((r) => r.status).sort()).toEqual(['FAILED', 'SUCCESS']);
  });

  it('a reusable link capped at 3: of 20 customers at once exactly 3 payments start', async () => {
    const l = await link({ reusable: true, maxPayments: 3 });
    const results = await customers(l, 20);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const { rows, jobs } = await written(l.id);
    expect(rows).toHaveLength(3);
    expect(jobs).toBe(3);
  });

  it('a reusable link without a cap takes every customer', async () => {
    const l = await link({ reusable: true, maxPayments: null });
    const results = await customers(l, 20);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
  });

  it('a link deactivated after its page was read refuses at the lock: INACTIVE, nothing written', async () => {
    const l = await link({ reusable: true, maxPayments: null });
    await fixture.db.$executeRaw`UPDATE payment_links SET deactivated_at = now() WHERE id = ${l.id}::uuid`;
    await expect(payThroughLink(deps(), l, { msisdn: '0707000001' }, [])).rejects.toMatchObject({ reason: 'INACTIVE' });
    const { rows, jobs } = await written(l.id);
    expect(rows).toHaveLength(0);
    expect(jobs).toBe(0);
  });

  it('refuses a number of another country and an operator not offered, writing nothing', async () => {
    const l = await link({ reusable: true, maxPayments: null });
    await expect(payThroughLink(deps(), l, { msisdn: '+221771234567' }, [])).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(payThroughLink(deps(), l, { msisdn: '0707000001', operator: 'WAVE' }, [])).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'operator' }],
    });
    expect((await written(l.id)).rows).toHaveLength(0);
  });
});
