import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { insertOutbox } from '@mm/db/outbox';
import { createLogger } from '@mm/observability';
import { bullPrefix, createRedisConnection, QueueProducer, refundRequests, retentionRuns } from '@mm/queues';
import {
  createMerchantTestDatabase,
  createTestRedis,
  sumBy,
  waitFor,
  type MerchantTestDatabase,
  type TestRedis,
} from '@mm/testing';
import type { RunningWorkerService } from '@mm/worker-runtime';
import { parseEnv } from '../env.js';
import { startExpiryWorker } from '../service.js';
import { RETENTION_SCHEDULER_ID } from './schedule.js';

const DAY_MS = 24 * 3600 * 1000;

describe('the retention job of the expiry worker', () => {
  let fixture: MerchantTestDatabase;
  let redis: TestRedis;
  const started: RunningWorkerService[] = [];
  const env = (intervalS: string) =>
    parseEnv({
      DATABASE_URL: fixture.database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      EXPIRY_WORKER_PORT: '0',
      DB_POOL_SIZE: '2',
      OUTBOX_RELAY_INTERVAL_MS: '1000',
      RETENTION_INTERVAL_S: intervalS,
      RETENTION_BATCH_SIZE: '5',
    });
  const start = async (intervalS: string) => {
    const worker = await startExpiryWorker(env(intervalS), { logger: createLogger('retention-test', 'silent') });
    started.push(worker);
    return worker;
  };
  const withQueue = async <T>(work: (queue: Queue) => Promise<T>): Promise<T> => {
    const connection = createRedisConnection(redis.url);
    const queue = new Queue(retentionRuns.name, { connection, prefix: bullPrefix(redis.prefix) });
    try {
      return await work(queue);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  };
  /** Completed outbox rows, `daysAgo` days ago. */
  const completedRows = async (n: number, daysAgo: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const row = await fixture.db.$transaction((tx) =>
        insertOutbox(tx, { topic: refundRequests.name, payload: { refund_id: randomUUID() } }),
      );
      await fixture.db.outbox.update({
        where: { id: row.id },
        data: { completedAt: new Date(Date.now() - daysAgo * DAY_MS) },
      });
      ids.push(row.id);
    }
    return ids;
  };
  const remaining = (ids: string[]) => fixture.db.outbox.count({ where: { id: { in: ids } } });

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    redis = await createTestRedis();
  });
  afterAll(async () => {
    for (const w of started) await w.stop();
    await redis.close();
    await fixture.close();
  });

  it('is scheduled at start, once for all replicas, every RETENTION_INTERVAL_S; its first run comes at once', async () => {
    const old = await completedRows(12, 8);
    const recent = await completedRows(2, 1);
    const first = await start('3600');
    await start('3600');

    const schedulers = await withQueue((q) => q.getJobSchedulers());
    expect(schedulers).toEqual([expect.objectContaining({ key: RETENTION_SCHEDULER_ID, every: 3_600_000 })]);
    await waitFor(async () => (await remaining(old)) === 0, {
      timeoutMs: 15_000,
      what: 'the old completed rows deleted',
    });
    expect(await remaining(recent)).toBe(2);

    const metrics = await (await fetch(`${first.internalUrl}/metrics`)).text();
    const replica = await (await fetch(`${started[1]!.internalUrl}/metrics`)).text();
    // Whichever replica ran it, the rows were counted once, per table.
    const deleted = (text: string) => sumBy(text, 'mm_retention_deleted_rows_total', (l) => l.table!);
    expect((deleted(metrics).outbox ?? 0) + (deleted(replica).outbox ?? 0)).toBe(12);
    expect(deleted(metrics)).toHaveProperty('webhook_attempts');
  });

  it('runs on demand too (a job of the queue), and then again on its schedule', async () => {
    const old = await completedRows(3, 30);
    const connection = createRedisConnection(redis.url);
    const producer = new QueueProducer(retentionRuns, { connection, redisPrefix: redis.prefix });
    try {
      await producer.add({ trigger: 'manual' });
    } finally {
      await producer.close();
      connection.disconnect();
    }
    await waitFor(async () => (await remaining(old)) === 0, {
      timeoutMs: 15_000,
      what: 'rows deleted by a run on demand',
    });

    // A short interval, given by a replica started later: the schedule follows it.
    const later = await completedRows(2, 30);
    await start('0.3');
    expect((await withQueue((q) => q.getJobSchedulers()))[0]).toMatchObject({ every: 300 });
    await waitFor(async () => (await remaining(later)) === 0, {
      timeoutMs: 15_000,
      what: 'rows deleted by a scheduled run',
    });
    const runs = () => withQueue((q) => q.getCompletedCount());
    const before = await runs();
    await waitFor(async () => (await runs()) >= before + 2, {
      timeoutMs: 15_000,
      what: 'two more runs on the 0.3 s schedule',
    });
  });

  it('RETENTION_INTERVAL_S=0 removes the schedule', async () => {
    await start('0');
    expect(await withQueue((q) => q.getJobSchedulers())).toEqual([]);
  });
});
