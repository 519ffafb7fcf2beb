import { randomBytes } from 'node:crypto';
import { createRedisConnection } from './redis-connection.js';
import { announceTransactionUpdate, TransactionUpdateWaiter } from './transaction-updates.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('TransactionUpdateWaiter', () => {
  // A gateway starts its waiter on a connection it has just opened. SUBSCRIBE written before
  // ioredis's ready check made that check fail in subscriber mode, and the reconnection that
  // followed came back without the subscription: every cash-in then waited its whole ack budget.
  it('hears announcements when started on a connection that is not ready yet', async () => {
    const prefix = `mmtest${randomBytes(5).toString('hex')}`;
    const publisher = createRedisConnection(REDIS_URL);
    const waiters: TransactionUpdateWaiter[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const subscriber = createRedisConnection(REDIS_URL);
        // Connected, its handshake (CLIENT SETINFO, then the ready check) not done yet: the window.
        await new Promise((connected) => subscriber.once('connect', connected));
        expect(subscriber.status).toBe('connect');
        waiters.push(await TransactionUpdateWaiter.start(subscriber, prefix));
      }
      for (const [i, waiter] of waiters.entries()) {
        const id = `t-${i}`;
        const heard = waiter.wait(id, (s) => s === 'PENDING', 5_000);
        // Announced until heard (the subscription is asynchronous on the server side) or the deadline.
        const deadline = Date.now() + 5_000;
        let status: string | null = null;
        const result = heard.promise.then((h) => {
          status = h?.status ?? null;
        });
        while (status === null && Date.now() < deadline) {
          await announceTransactionUpdate(publisher, prefix, { transaction_id: id, status: 'PENDING' });
          await Promise.race([result, new Promise((r) => setTimeout(r, 50))]);
        }
        expect(status).toBe('PENDING');
      }
    } finally {
      await Promise.all(waiters.map((w) => w.close()));
      publisher.disconnect();
    }
  });

  it('ends a wait as soon as its signal is aborted, or at once when it already is, and forgets the waiter', async () => {
    const prefix = `mmtest${randomBytes(5).toString('hex')}`;
    const waiter = await TransactionUpdateWaiter.start(createRedisConnection(REDIS_URL), prefix);
    try {
      const outage = new AbortController();
      // Deadlines past the test's own timeout: only the abort can end these waits in time.
      const waiting = waiter.wait('t-abort', () => true, 120_000, outage.signal);
      setTimeout(() => outage.abort(new Error('database unavailable')), 20);
      expect(await waiting.promise).toBeNull();
      expect(await waiter.wait('t-aborted', () => true, 120_000, outage.signal).promise).toBeNull();
      expect((waiter as unknown as { waiters: Map<string, unknown> }).waiters.size).toBe(0);
    } finally {
      await waiter.close();
    }
  });
});
