import { randomBytes } from 'node:crypto';
import type { KeepJobs } from 'bullmq';
import type { Redis } from 'ioredis';
import { retentionRuns } from './definitions/retention-runs.js';
import { FAILED_JOBS_KEPT } from './job-retention.js';
import { QueueProducer } from './producer.js';
import { DEFINITIONS, isOutboxTopic, OUTBOX_QUEUES, QUEUES } from './queue-definitions.js';
import { createRedisConnection } from './redis-connection.js';

type Kept = boolean | number | KeepJobs | undefined;
const DAY_S = 24 * 3600;

/** True when Redis keeps a bounded number of such jobs for a bounded time (true: none at all). */
function bounded(kept: Kept): boolean {
  if (kept === true) return true;
  if (typeof kept !== 'object') return false;
  const { age, count } = kept as { age?: number; count?: number };
  return (
    age !== undefined && count !== undefined && Number.isFinite(age) && age > 0 && Number.isFinite(count) && count > 0
  );
}

describe('the catalog', () => {
  it('names each queue once, and finds the outbox queues by the outbox_id of their payload', () => {
    expect(Object.keys(QUEUES)).toEqual(DEFINITIONS.map((d) => d.name));
    expect(new Set(Object.keys(QUEUES)).size).toBe(DEFINITIONS.length);
    expect(Object.keys(OUTBOX_QUEUES).sort()).toEqual([
      'cashout-requests',
      'expiry-checks',
      'operator-requests',
      'refund-requests',
      'webhook-deliveries',
    ]);
    expect(isOutboxTopic('operator-results')).toBe(false);
  });
});

describe('retention of finished jobs in Redis', () => {
  it.each(Object.values(QUEUES).map((d) => [d.name, d] as const))(
    '%s keeps its completed and its failed jobs for a bounded time and number',
    (_name, definition) => {
      expect(bounded(definition.jobOptions.removeOnComplete)).toBe(true);
      expect(bounded(definition.jobOptions.removeOnFail)).toBe(true);
    },
  );

  it('the outbox queues keep failed jobs for days, by age first: the relay reads them to count and park failing runs', () => {
    for (const definition of Object.values(QUEUES).filter((d) => isOutboxTopic(d.name))) {
      const kept = definition.jobOptions.removeOnFail as KeepJobs;
      expect({ queue: definition.name, kept }).toEqual({ queue: definition.name, kept: FAILED_JOBS_KEPT });
    }
    expect(FAILED_JOBS_KEPT.age).toBeGreaterThanOrEqual(DAY_S);
    expect(FAILED_JOBS_KEPT.count).toBeGreaterThanOrEqual(10_000);
  });
});

describe('a scheduled job', () => {
  let connection: Redis;
  const prefix = `mmtest${randomBytes(5).toString('hex')}`;
  beforeAll(() => {
    connection = createRedisConnection(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    const keys = await connection.keys(`${prefix}*`);
    if (keys.length > 0) await connection.del(...keys);
    connection.disconnect();
  });

  it('is one scheduler however many replicas schedule it, with the last interval given, and goes when unscheduled', async () => {
    const replicas = [1, 2, 3].map(() => new QueueProducer(retentionRuns, { connection, redisPrefix: prefix }));
    try {
      await Promise.all(replicas.map((p) => p.schedule('retention', 3_600_000, { trigger: 'schedule' })));
      await replicas[0]!.schedule('retention', 1_800_000, { trigger: 'schedule' });
      const schedulers = await replicas[0]!.queue.getJobSchedulers();
      expect(schedulers).toEqual([
        expect.objectContaining({
          key: 'retention',
          every: 1_800_000,
          template: expect.objectContaining({ data: { trigger: 'schedule' } }),
        }),
      ]);
      expect((await replicas[0]!.queue.getDelayedCount()) + (await replicas[0]!.queue.getWaitingCount())).toBe(1);

      expect(await replicas[1]!.unschedule('retention')).toBe(true);
      expect(await replicas[0]!.queue.getJobSchedulers()).toEqual([]);
      await expect(replicas[0]!.schedule('retention', 1000, { trigger: 'later' } as never)).rejects.toThrow(
        /invalid retention-runs payload/,
      );
    } finally {
      await Promise.all(replicas.map((p) => p.close()));
    }
  });
});
