import { Queue } from 'bullmq';
import { createMerchant } from '@mm/db/merchants';
import { setOperatorAccountEnabled } from '@mm/db/operator-accounts';
import type { DaySummary } from '@mm/db/reconciliation';
import type { OperatorRecord } from '@mm/domain';
import { createLogger } from '@mm/observability';
import {
  bullPrefix,
  createRedisConnection,
  outboxJobId,
  QueueProducer,
  reconciliationRuns,
  webhookDeliveries,
} from '@mm/queues';
import {
  createMerchantTestDatabase,
  createTestRedis,
  samplesOf,
  waitFor,
  type MerchantTestDatabase,
  type TestRedis,
} from '@mm/testing';
import { parseEnv } from '../env.js';
import { dayBefore } from '../processors/reconciliation-runs.js';
import { startOperatorBridge, type RunningBridge } from '../service.js';
import { cashinOfDay, collected, listingOperator } from '../test-support/reconciliation-day.js';

const ENABLED = ['reconcile:CI:SIMULATOR', 'reconcile:CM:SIMULATOR', 'reconcile:SN:SIMULATOR'];

describe('the operator bridge runs the daily reconciliation of every enabled operator account', () => {
  let fixture: MerchantTestDatabase;
  let redis: TestRedis;
  let bridge: RunningBridge | null = null;
  /** The operator's records, by day. */
  const theirs = new Map<string, OperatorRecord[]>();
  const paid = new Set<string>();
  const operator = listingOperator(
    (date) => theirs.get(date) ?? [],
    () => paid,
  );
  const start = async (extra: Record<string, string> = {}) => {
    bridge = await startOperatorBridge(
      parseEnv({
        DATABASE_URL: fixture.database.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
        OPERATOR_BRIDGE_PORT: '0',
        OPERATOR_BRIDGE_INTERNAL_PORT: '0',
        DB_POOL_SIZE: '4',
        OPERATOR_BREAKER_THRESHOLD: '0',
        ...extra,
      }),
      {
        logger: createLogger('reconciliation-test', 'silent'),
        adapter: operator,
        scheduleCheckMs: 50,
        jobOptions: { backoff: { type: 'fixed', delay: 50 } },
      },
    );
    return bridge;
  };
  const withQueue = async <T>(name: string, work: (queue: Queue) => Promise<T>): Promise<T> => {
    const connection = createRedisConnection(redis.url);
    const queue = new Queue(name, { connection, prefix: bullPrefix(redis.prefix) });
    try {
      return await work(queue);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  };
  const schedulers = () =>
    withQueue(reconciliationRuns.name, async (q) =>
      (await q.getJobSchedulers(0, -1)).sort((a, b) => a.key.localeCompare(b.key)),
    );
  const schedulerIds = async () => (await schedulers()).map((s) => s.key);

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase(3);
    redis = await createTestRedis();
    await start();
  });
  afterAll(async () => {
    await bridge?.stop();
    await redis.close();
    await fixture.close();
  });

  it('keeps one scheduler per enabled account, daily at RECONCILIATION_CRON in UTC, added and removed as accounts are enabled and disabled', async () => {
    const all = await schedulers();
    expect(all.map((s) => s.key)).toEqual(ENABLED);
    for (const s of all) {
      expect(s).toMatchObject({ pattern: '30 1 * * *', tz: 'UTC' });
      expect(s.template?.data).toEqual({
        country_code: s.key.split(':')[1],
        operator: 'SIMULATOR',
        date: null,
        trigger: 'schedule',
      });
      // The next occurrence: 01:30 UTC, within a day.
      expect(new Date(s.next!).toISOString()).toMatch(/T01:30:00\.000Z$/);
      expect(s.next! - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000);
    }

    const { db } = fixture;
    await setOperatorAccountEnabled(db, 'SN', 'SIMULATOR', false);
    await setOperatorAccountEnabled(db, 'CM', 'MTN', true);
    const changed = ['reconcile:CI:SIMULATOR', 'reconcile:CM:MTN', 'reconcile:CM:SIMULATOR'];
    await waitFor(async () => JSON.stringify(await schedulerIds()) === JSON.stringify(changed), {
      timeoutMs: 10_000,
      what: `the schedulers ${changed.join(', ')}`,
    });
    // Its next job went with it: none left waiting for the disabled account.
    const delayed = await withQueue(reconciliationRuns.name, (q) => q.getDelayed());
    expect(
      delayed
        .map((j) => j.data as { country_code: string; operator: string })
        .map((d) => `reconcile:${d.country_code}:${d.operator}`)
        .sort(),
    ).toEqual(changed);

    await setOperatorAccountEnabled(db, 'SN', 'SIMULATOR', true);
    await setOperatorAccountEnabled(db, 'CM', 'MTN', false);
    await waitFor(async () => JSON.stringify(await schedulerIds()) === JSON.stringify(ENABLED), {
      timeoutMs: 10_000,
      what: 'the schedulers back as at first',
    });
  });

  it("runs a scheduled occurrence for the day before it: a late success applied and its webhook published at once, the summary kept as the job's return value, the open cases on /metrics", async () => {
    const { db, merchantId } = fixture;
    const scheduled = await withQueue(reconciliationRuns.name, async (q) =>
      (await q.getDelayed()).find((j) => j.repeatJobKey === 'reconcile:CI:SIMULATOR'),
    );
    expect(scheduled).toBeDefined();
    const occurrence = Number(/:(\d+)$/.exec(scheduled!.id!)![1]);
    const day = dayBefore(occurrence);
    const notified = (await createMerchant(db, { name: 'Notified', webhookUrl: 'https://shop.example/hooks' })).id;
    const ok = await cashinOfDay(db, merchantId, {
      order: 'sched-ok',
      amount: 1500,
      status: 'SUCCESS',
      at: `${day}T08:00:00Z`,
    });
    const missing = await cashinOfDay(db, merchantId, {
      order: 'sched-missing',
      amount: 2500,
      status: 'SUCCESS',
      at: `${day}T09:00:00Z`,
    });
    const late = await cashinOfDay(db, notified, {
      order: 'sched-late',
      amount: 3500,
      status: 'EXPIRED',
      at: `${day}T10:00:00Z`,
    });
    theirs.set(day, [collected(ok.reference, 1500), collected(late.reference, 3500)]);
    paid.add(late.reference);

    // 01:30 now rather than tonight.
    await withQueue(reconciliationRuns.name, async (q) => {
      await (await q.getJob(scheduled!.id!))!.promote();
    });
    const summary = await waitFor(
      () =>
        withQueue(reconciliationRuns.name, async (q) => {
          const job = await q.getJob(scheduled!.id!);
          return job?.finishedOn ? (job.returnvalue as DaySummary) : undefined;
        }),
      { timeoutMs: 15_000, what: 'the scheduled run done' },
    );
    expect(summary).toMatchObject({
      operator: 'SIMULATOR',
      country_code: 'CI',
      date: day,
      matched: 2,
      open_cases: 1,
      resolved_automatically: 1,
      sources: ['API'],
      by_category: { MATCHED: { count: 2, amount: 5000 }, MISSING_AT_OPERATOR: { count: 1, amount: 2500 } },
    });
    expect(await db.reconciliationRun.findMany()).toEqual([
      expect.objectContaining({ countryCode: 'CI', operator: 'SIMULATOR', matched: 2, openCases: 1 }),
    ]);
    expect((await db.transaction.findUniqueOrThrow({ where: { id: late.id } })).status).toBe('SUCCESS');
    // The merchant's webhook job is in Redis already: no relay runs webhook-deliveries in this process.
    const row = await db.outbox.findFirstOrThrow({ where: { topic: webhookDeliveries.name, completedAt: null } });
    expect(await withQueue(webhookDeliveries.name, (q) => q.getJob(outboxJobId(row.id, 0)))).toBeDefined();
    // And the scheduler goes on: its next occurrence a day later.
    expect((await schedulers()).find((s) => s.key === 'reconcile:CI:SIMULATOR')!.next).toBe(
      occurrence + 24 * 3600 * 1000,
    );

    const metrics = await (await fetch(`${bridge!.internalUrl}/metrics`)).text();
    const series = (name: string, labels: string[]) =>
      Object.fromEntries(samplesOf(metrics, name).map((s) => [labels.map((l) => s.labels[l]).join(':'), s.value]));
    expect(series('mm_reconciliation_open_cases', ['operator', 'country'])).toEqual({
      'SIMULATOR:CI': 1,
      'SIMULATOR:CM': 0,
      'SIMULATOR:SN': 0,
    });
    expect(series('mm_reconciliation_unmatched_amount', ['operator', 'country', 'currency'])).toEqual({
      'SIMULATOR:CI:XOF': 2500,
      'SIMULATOR:CM:XAF': 0,
      'SIMULATOR:SN:XOF': 0,
    });
    // `failed` at 0 from the start, for the alert on its increase.
    expect(series('mm_reconciliation_runs_total', ['operator', 'outcome'])).toEqual({
      'SIMULATOR:open_cases': 1,
      'SIMULATOR:failed': 0,
    });
    expect(await db.reconciliationCase.findMany({ where: { state: 'OPEN' } })).toEqual([
      expect.objectContaining({ recordKey: missing.reference, category: 'MISSING_AT_OPERATOR', difference: -2500n }),
    ]);
  });

  it('runs a day asked for by hand (a job added with its date)', async () => {
    const connection = createRedisConnection(redis.url);
    const producer = new QueueProducer(reconciliationRuns, { connection, redisPrefix: redis.prefix });
    try {
      await producer.add(
        { country_code: 'SN', operator: 'SIMULATOR', date: '2026-11-02', trigger: 'manual' },
        { jobId: 'manual-sn' },
      );
    } finally {
      await producer.close();
      connection.disconnect();
    }
    const summary = await waitFor(
      () =>
        withQueue(reconciliationRuns.name, async (q) => {
          const job = await q.getJob('manual-sn');
          return job?.finishedOn ? (job.returnvalue as DaySummary) : undefined;
        }),
      { timeoutMs: 15_000, what: 'the manual run done' },
    );
    expect(summary).toMatchObject({ country_code: 'SN', date: '2026-11-02', matched: 0, open_cases: 0 });
    expect(operator.pages).toContain('2026-11-02@0');
  });

  it('with RECONCILIATION_CRON empty, schedules nothing and removes the schedulers an earlier start left', async () => {
    await bridge!.stop();
    bridge = null;
    expect(await schedulerIds()).toEqual(ENABLED);
    await start({ RECONCILIATION_CRON: '' });
    expect(await schedulerIds()).toEqual([]);
    expect(await withQueue(reconciliationRuns.name, (q) => q.getDelayed())).toEqual([]);
  });
});
