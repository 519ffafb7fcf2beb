import { createDb, type Db } from '@mm/db';
import { moveNow, readTransaction } from '@mm/db/payments';
import {
  AfterCommit,
  announceTransactionUpdate,
  createRedisConnection,
  OutboxPublisher,
  TransactionUpdateWaiter,
  type PublishableOutboxRow,
  type RedisClient,
} from '@mm/queues';
import {
  createMerchantTestDatabase,
  createTestRedis,
  waitFor,
  type MerchantTestDatabase,
  type TestRedis,
} from '@mm/testing';
import { initiateCashin, type InitiateCashinDeps, type OutageSignal } from './initiate-cashin.js';

/**
 * The gateway's cash-in answers with the row the operator's acknowledgement committed. The bridge's
 * announcement carries the fields that move changed, so no read follows the creation; an announcement
 * without them (a bridge of before) still gets the row read back.
 */
describe('initiateCashin: the answer after the acknowledgement', () => {
  let fixture: MerchantTestDatabase;
  let redis: TestRedis;
  let gatewayDb: Db;
  let publisher: RedisClient;
  let waiter: TransactionUpdateWaiter;
  const sent: string[] = [];

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    redis = await createTestRedis();
    gatewayDb = createDb({ databaseUrl: fixture.database.url, poolSize: 2, onQuery: (q) => sent.push(q) });
    publisher = createRedisConnection(redis.url);
    waiter = await TransactionUpdateWaiter.start(createRedisConnection(redis.url), redis.prefix);
  });
  afterAll(async () => {
    await waiter.close();
    publisher.disconnect();
    await gatewayDb.$disconnect();
    await redis.close();
    await fixture.close();
  });

  /** Stands for the bridge: takes the operator request, pushes, and commits PENDING as the operator acknowledged. */
  function bridge(
    announce: (moved: NonNullable<Awaited<ReturnType<typeof moveNow>>>) => Promise<void>,
  ): OutboxPublisher {
    return new (class extends OutboxPublisher {
      override async publish(rows: PublishableOutboxRow[]) {
        for (const row of rows.filter((r) => r.topic === 'operator-requests')) {
          const id = (row.payload as { transaction_id: string }).transaction_id;
          setImmediate(
            () =>
              void (async () => {
                await moveNow(fixture.db, {
                  transactionId: id,
                  to: 'INITIATED',
                  from: ['CREATED'],
                  ofType: 'CASHIN',
                  cause: 'operator-request',
                });
                const moved = await moveNow(fixture.db, {
                  transactionId: id,
                  to: 'PENDING',
                  ofType: 'CASHIN',
                  cause: 'operator-ack',
                  patch: {
                    providerSessionId: 'sess-1',
                    providerState: 'PENDING',
                    customerAction: { type: 'OTP', ussd: '#144*82#' },
                    expiresAt: new Date(Date.now() + 300_000),
                  },
                });
                if (moved) await announce(moved);
              })(),
          );
        }
        return [];
      }
    })([]);
  }

  function deps(outbox: OutboxPublisher): InitiateCashinDeps {
    return {
      db: gatewayDb,
      afterCommit: new AfterCommit(outbox, publisher, redis.prefix),
      waiter,
      limits: { min: 100, max: 1_000_000 },
      ackWaitMs: 5_000,
      isActiveCountry: async () => true,
      operators: { route: async () => ({ kind: 'routed', operator: 'SIMULATOR' }), unavailableRetryAfterS: 30 },
    };
  }
  const body = (order: string) => ({
    merchant_order_id: order,
    amount: 5000,
    customer_msisdn: '+2250707000001',
    country_code: 'CI',
  });

  it('answers with the acknowledged row from the announcement: one statement, the creation', async () => {
    const bridgeCommit = new AfterCommit(new OutboxPublisher([]), publisher, redis.prefix);
    const outbox = bridge((moved) =>
      bridgeCommit.run([{ transaction: moved.transaction, from: moved.from, outbox: [] }]),
    );
    sent.length = 0;
    const { transaction } = await initiateCashin(deps(outbox), fixture.merchantId, body('ack-fields-1'));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/INSERT INTO transactions/i);
    expect(transaction.status).toBe('PENDING');
    expect(transaction).toEqual(await readTransaction(fixture.db, { id: transaction.id }));
  });

  it('reads the row back when the announcement carries only the status', async () => {
    const outbox = bridge((moved) =>
      announceTransactionUpdate(publisher, redis.prefix, {
        transaction_id: moved.transaction.id,
        status: moved.transaction.status,
      }),
    );
    sent.length = 0;
    const { transaction } = await initiateCashin(deps(outbox), fixture.merchantId, body('ack-fields-2'));
    expect(sent).toHaveLength(2);
    expect(transaction.status).toBe('PENDING');
    expect(transaction).toEqual(await readTransaction(fixture.db, { id: transaction.id }));
  });

  describe('PostgreSQL gone while the acknowledgement is awaited (the bridge cannot write it)', () => {
    /** What a pooled connection reports when PostgreSQL stops (pg_ctl stop -m immediate). */
    const connectionEnded = () =>
      Object.assign(new Error('terminating connection due to immediate shutdown command'), { code: '57P01' });
    // No bridge: only the outage can end these waits before the test's own timeout.
    const silent = new OutboxPublisher([]);
    /** The gateway's DatabaseOutage as the wait sees it: once seen, every signal taken since is aborted. */
    const databaseOutage = (): OutageSignal & { seen(err: unknown): void } => {
      const controller = new AbortController();
      return { mark: () => 0, signalSince: () => controller.signal, seen: (err) => controller.abort(err) };
    };
    const waitingDeps = (outage: OutageSignal): InitiateCashinDeps => ({
      ...deps(silent),
      ackWaitMs: 120_000,
      databaseOutage: outage,
    });

    it('seen once the wait began: answered at once with the committed row, nothing read back', async () => {
      const outage = databaseOutage();
      sent.length = 0;
      const answer = initiateCashin(waitingDeps(outage), fixture.merchantId, body('outage-1'));
      await waitFor(() => sent.some((q) => /INSERT INTO transactions/i.test(q)) || undefined, {
        what: 'the cash-in committed',
      });
      setImmediate(() => outage.seen(connectionEnded()));
      const { transaction } = await answer;
      expect(transaction.status).toBe('CREATED');
      expect(sent).toHaveLength(1);
      expect(transaction).toEqual(await readTransaction(fixture.db, { id: transaction.id }));
    });

    it('seen between the commit and the wait: no wait at all', async () => {
      const outage = databaseOutage();
      const db = createDb({
        databaseUrl: fixture.database.url,
        poolSize: 1,
        onQuery: (q) => {
          if (/INSERT INTO transactions/i.test(q)) outage.seen(connectionEnded());
        },
      });
      try {
        const { transaction } = await initiateCashin(
          { ...waitingDeps(outage), db },
          fixture.merchantId,
          body('outage-2'),
        );
        expect(transaction.status).toBe('CREATED');
      } finally {
        await db.$disconnect();
      }
    });
  });
});
