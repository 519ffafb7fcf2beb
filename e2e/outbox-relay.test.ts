import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createDb, type Db } from '@mm/db';
import { findOverdueOutbox, insertOutbox } from '@mm/db/outbox';
import { createTestDatabase, createTestRedis, waitFor, type TestDatabase, type TestRedis } from '@mm/testing';
import {
  createOutboxPublisher,
  createRedisConnection,
  createWorker,
  operatorRequests,
  startOutboxRelay,
} from '@mm/queues';

describe('outbox relay', () => {
  let database: TestDatabase;
  let testRedis: TestRedis;
  let db: Db;
  let connection: Redis;
  let workerConnection: Redis;
  let worker: Worker | undefined;
  let outbox: ReturnType<typeof createOutboxPublisher>;
  const logged: { level: string; msg: string; obj: object }[] = [];
  const log = {
    info: (obj: object, msg: string) => {
      logged.push({ level: 'info', msg, obj });
    },
    warn: (obj: object, msg: string) => {
      logged.push({ level: 'warn', msg, obj });
    },
    error: (obj: object, msg: string) => {
      logged.push({ level: 'error', msg, obj });
    },
  };

  beforeEach(async () => {
    database = await createTestDatabase();
    testRedis = await createTestRedis();
    db = createDb({ databaseUrl: database.url, poolSize: 2 });
    connection = createRedisConnection(testRedis.url);
    workerConnection = createRedisConnection(testRedis.url);
    outbox = createOutboxPublisher([operatorRequests], { connection, redisPrefix: testRedis.prefix });
  });
  afterEach(async () => {
    await worker?.close();
    await outbox.close();
    connection.disconnect();
    workerConnection.disconnect();
    await db.$disconnect();
    await testRedis.close();
    await database.drop();
  });

  const relay = () =>
    startOutboxRelay({
      publisher: outbox.publisher,
      topics: [operatorRequests.name],
      findOverdue: (topics, before) => findOverdueOutbox(db, topics, before),
      graceMs: 0,
      intervalMs: 60_000,
    });

  it('publishes a committed row that was never published (process died after commit)', async () => {
    const seen: string[] = [];
    worker = createWorker(
      operatorRequests,
      { connection: workerConnection, redisPrefix: testRedis.prefix, logger: log },
      async (p) => {
        seen.push(p.transaction_id);
      },
    );
    const transactionId = randomUUID();
    await db.$transaction((tx) =>
      insertOutbox(tx, { topic: operatorRequests.name, payload: { transaction_id: transactionId } }),
    );
    const r = relay();
    expect(await r.runOnce()).toBe(1);
    await waitFor(() => seen.length === 1, { what: 'job run' });
    expect(seen).toEqual([transactionId]);
    await r.stop();
  });

  it('runs again a job that failed for good while its row is not done, instead of leaving it stuck', async () => {
    let calls = 0;
    worker = createWorker(
      operatorRequests,
      { connection: workerConnection, redisPrefix: testRedis.prefix, logger: log },
      async () => {
        calls += 1;
        if (calls === 1) throw new UnrecoverableError('database was down');
      },
    );
    const row = await db.$transaction((tx) =>
      insertOutbox(tx, { topic: operatorRequests.name, payload: { transaction_id: randomUUID() } }),
    );
    await outbox.publisher.publish([row]);
    await waitFor(() => calls === 1, { what: 'first run' });
    const r = relay();
    await waitFor(
      async () => {
        await r.runOnce();
        return calls === 2;
      },
      { what: 'second run after the relay' },
    );
    await r.stop();
    // Every worker logs its failed attempts: createWorker attaches the listener, no caller can forget it.
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'job failed',
        obj: expect.objectContaining({ queue: operatorRequests.name }),
      }),
    );
  });

  it('a worker logs its connection errors instead of crashing the process (an unheard error event throws)', async () => {
    worker = createWorker(
      operatorRequests,
      { connection: workerConnection, redisPrefix: testRedis.prefix, logger: log },
      async () => undefined,
    );
    expect(() => worker!.emit('error', new Error('connect ECONNREFUSED'))).not.toThrow();
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'worker error',
        obj: expect.objectContaining({ queue: operatorRequests.name }),
      }),
    );
  });

  it('does not publish held rows nor rows of other topics', async () => {
    await db.$transaction(async (tx) => {
      await insertOutbox(tx, { topic: 'webhook-deliveries', payload: { event_id: randomUUID() } });
      await insertOutbox(tx, {
        topic: operatorRequests.name,
        payload: { transaction_id: randomUUID() },
        availableAt: new Date('9999-12-31T00:00:00Z'),
      });
    });
    expect(await relay().runOnce()).toBe(0);
  });
});
