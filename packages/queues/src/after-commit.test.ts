import { randomBytes } from 'node:crypto';
import { AfterCommit } from './after-commit.js';
import { OutboxPublisher } from './outbox-publisher.js';
import { createRedisConnection } from './redis-connection.js';
import { TransactionUpdateWaiter } from './transaction-updates.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('AfterCommit announcements', () => {
  it("announces what a gateway may wait for (a cash-in's move out of CREATED or INITIATED), nothing before or after it", async () => {
    const prefix = `mmtest${randomBytes(5).toString('hex')}`;
    const redis = createRedisConnection(REDIS_URL);
    const subscriber = createRedisConnection(REDIS_URL);
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => {
      const m = JSON.parse(message) as { transaction_id: string; status: string };
      heard.push(`${m.transaction_id} ${m.status}`);
    });
    const waiter = await TransactionUpdateWaiter.start(subscriber, prefix);
    try {
      const afterCommit = new AfterCommit(new OutboxPublisher([]), redis, prefix);
      const change = (id: string, from: string | null | undefined, status: string) => ({
        transaction: { id, status, type: 'CASHIN' },
        from,
        outbox: [],
      });
      const last = waiter.wait('t3', (s) => s === 'FAILED', 5_000);
      await afterCommit.run([
        change('t1', null, 'CREATED'),
        change('t1', 'CREATED', 'INITIATED'),
        change('t1', 'INITIATED', 'PENDING'),
        change('t1', 'PENDING', 'SUCCESS'),
        // A refund's effect on its cash-in: its status does not change.
        change('t1', undefined, 'SUCCESS'),
        // Decided before any acknowledgement: the gateway waits for that decision.
        change('t2', 'INITIATED', 'SUCCESS'),
        change('t3', 'CREATED', 'FAILED'),
      ]);
      expect(await last.promise).toEqual({ status: 'FAILED', fields: null });
      // Published in order on one connection: the last one heard means the others would have been heard before it.
      expect(heard).toEqual(['t1 PENDING', 't2 SUCCESS', 't3 FAILED']);
    } finally {
      await waiter.close();
      redis.disconnect();
    }
  });

  it("carries the moved row's acknowledged fields when given the row, dates and the customer action intact", async () => {
    const prefix = `mmtest${randomBytes(5).toString('hex')}`;
    const redis = createRedisConnection(REDIS_URL);
    const waiter = await TransactionUpdateWaiter.start(createRedisConnection(REDIS_URL), prefix);
    try {
      const afterCommit = new AfterCommit(new OutboxPublisher([]), redis, prefix);
      const updatedAt = new Date('2026-11-28T10:00:00.123Z');
      const expiresAt = new Date('2026-11-28T10:05:00.123Z');
      const moved = {
        id: 't4',
        status: 'PENDING',
        type: 'CASHIN',
        merchantId: 'not announced',
        providerTxId: null,
        providerSessionId: 'sess-9',
        providerState: 'PENDING',
        providerTxnStatus: null,
        failureCode: null,
        failureReason: null,
        customerAction: { type: 'REDIRECT', url: 'https://op.example/pay/9' },
        updatedAt,
        expiresAt,
        completedAt: null,
      };
      const heard = waiter.wait('t4', (s) => s === 'PENDING', 5_000);
      await afterCommit.run([{ transaction: moved, from: 'INITIATED', outbox: [] }]);
      const { id: _id, type: _type, merchantId: _m, ...fields } = moved;
      expect(await heard.promise).toEqual({ status: 'PENDING', fields });
    } finally {
      await waiter.close();
      redis.disconnect();
    }
  });
});
