import { randomBytes } from 'node:crypto';
import { AfterCommit } from './after-commit.js';
import { OutboxPublisher } from './outbox-publisher.js';
import { createRedisConnection } from './redis-connection.js';
import { TransactionUpdateWaiter } from './transaction-updates.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('AfterCommit announcements', () => {
  it('announces what a gateway may wait for, not a cash-in created or handed to the bridge', async () => {
    const prefix = `mmtest${randomBytes(5).toString('hex')}`;
    const redis = createRedisConnection(REDIS_URL);
    const subscriber = createRedisConnection(REDIS_URL);
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push((JSON.parse(message) as { status: string }).status));
    const waiter = await TransactionUpdateWaiter.start(subscriber, prefix);
    try {
      const afterCommit = new AfterCommit(new OutboxPublisher([]), redis, prefix);
      const change = (status: string) => ({ transaction: { id: 't1', status, type: 'CASHIN' }, from: null, outbox: [] });
      const pending = waiter.wait('t1', (s) => s === 'PENDING', 5_000);
      await afterCommit.run([change('CREATED'), change('INITIATED'), change('PENDING')]);
      expect(await pending.promise).toBe('PENDING');
      // Published in order on one connection: PENDING heard means the others would have been heard before it.
      expect(heard).toEqual(['PENDING']);
    } finally {
      await waiter.close();
      redis.disconnect();
    }
  });
});
