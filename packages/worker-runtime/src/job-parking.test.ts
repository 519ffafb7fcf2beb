import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { findOverdueOutbox, insertOutbox, listParkedJobs, unparkJob } from '@mm/db/outbox';
import { createLogger } from '@mm/observability';
import { bullPrefix, createRedisConnection, outboxJobId, refundRequests, type RefundRequestJob } from '@mm/queues';
import {
  createMerchantTestDatabase,
  createTestRedis,
  sumBy,
  waitFor,
  type MerchantTestDatabase,
  type TestRedis,
} from '@mm/testing';
import { testWorkerEnv } from './test-support/worker-env.js';
import { startWorkerService, type RunningWorkerService } from './start-worker-service.js';

describe('a job that keeps failing for an unknown reason is parked after a bounded number of runs', () => {
  let fixture: MerchantTestDatabase;
  let redis: TestRedis;
  let worker: RunningWorkerService;
  const runs: RefundRequestJob[] = [];

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    redis = await createTestRedis();
    worker = await startWorkerService({
      service: 'parking-test',
      env: testWorkerEnv(fixture, redis),
      internalPort: 0,
      logger: createLogger('parking-test', 'silent'),
      jobOptions: { attempts: 2, backoff: { type: 'fixed', delay: 10 } },
      setup: () => ({
        jobs: {
          'refund-requests': {
            concurrency: 1,
            handler: async (payload) => {
              runs.push(payload);
              throw new TypeError("Cannot read properties of undefined (reading 'refund_id')");
            },
          },
        },
      }),
    });
  });
  afterAll(async () => {
    await worker.stop();
    await redis.close();
    await fixture.close();
  });

  it('is tried OUTBOX_MAX_FAILED_RUNS runs of every attempt, then parked: no longer re-published, kept failed in BullMQ, reported, and run again on demand', async () => {
    const { db } = fixture;
    const row = await db.$transaction((tx) =>
      insertOutbox(tx, { topic: refundRequests.name, payload: { refund_id: randomUUID() } }),
    );

    // 2 runs of 2 attempts each, then parked.
    await waitFor(async () => (await db.outbox.findUniqueOrThrow({ where: { id: row.id } })).parkedAt !== null, {
      timeoutMs: 15_000,
      what: 'the row parked',
    });
    const parked = await db.outbox.findUniqueOrThrow({ where: { id: row.id } });
    expect(parked).toMatchObject({
      failedRuns: 2,
      completedAt: null,
      lastError: "Cannot read properties of undefined (reading 'refund_id')",
    });
    expect(runs.filter((r) => r.outbox_id === row.id)).toHaveLength(4);

    // The relay skips it; its failed job stays in Redis, where the Bull dashboard shows it.
    expect(
      (await findOverdueOutbox(db, [refundRequests.name], new Date(Date.now() + 60_000))).map((r) => r.id),
    ).not.toContain(row.id);
    const connection = createRedisConnection(redis.url);
    const queue = new Queue(refundRequests.name, { connection, prefix: bullPrefix(redis.prefix) });
    try {
      expect(await (await queue.getJob(outboxJobId(row.id, 0)))?.isFailed()).toBe(true);
    } finally {
      await queue.close();
      connection.disconnect();
    }
    expect((await listParkedJobs(db)).map((j) => j.id)).toEqual([row.id]);
    const metrics = await (await fetch(`${worker.internalUrl}/metrics`)).text();
    expect(sumBy(metrics, 'mm_outbox_parked_jobs', (l) => l.topic!)).toEqual({ [refundRequests.name]: 1 });
    expect(sumBy(metrics, 'mm_jobs_parked_total', (l) => l.queue!)).toEqual({ [refundRequests.name]: 1 });

    // A person runs it again: a fresh count, a new job id, and the relay picks it up.
    expect(await db.$transaction((tx) => unparkJob(tx, row.id))).toBe(true);
    await waitFor(async () => runs.filter((r) => r.outbox_id === row.id).length > 4, {
      timeoutMs: 15_000,
      what: 'a run after unparking',
    });
    expect(await db.outbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ run: 1 });
  });

  it('parks at once a row whose payload breaks its queue schema (written before a schema change, or by hand): it could never run', async () => {
    const { db } = fixture;
    // Through the client, not insertOutbox: our own code cannot write such a row.
    const row = await db.outbox.create({
      data: { id: randomUUID(), topic: refundRequests.name, payload: { refund_id: 'not-a-uuid' } },
    });
    await waitFor(async () => (await db.outbox.findUniqueOrThrow({ where: { id: row.id } })).parkedAt !== null, {
      timeoutMs: 15_000,
      what: 'the broken row parked',
    });
    const parked = await db.outbox.findUniqueOrThrow({ where: { id: row.id } });
    expect(parked.failedRuns).toBe(1);
    expect(parked.lastError).toContain('refund_id');
    expect(runs.filter((r) => r.outbox_id === row.id)).toHaveLength(0);
  });
});
