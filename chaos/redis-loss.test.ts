import { waitFor } from '@mm/testing';
import type { ApiResponse } from '@mm/testing';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { restartedServices, settle, violations } from './support/invariants.js';
import { runLoad, type Api } from './support/load.js';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Scenario 3: Redis loses everything in the middle of a load, by FLUSHALL and by a kill -9 and restart
 * of the server (it keeps nothing on disk). Queued, delayed and retrying jobs, acknowledged operator
 * callbacks and replay keys are gone; every job that must happen is a PostgreSQL row first, so the
 * relays publish it again and status checks with the operator find the results whose callback was lost.
 */
let sys: ChaosSystem;

beforeAll(async () => {
  // Failed webhooks wait 1 s: long enough for their delayed retry to be in Redis when it is emptied.
  sys = await startChaosSystem({ suite: 'redis-loss', webhookScheduleS: '1,1,1,1,1,1', confirmationTimeoutS: 5 });
});
afterAll(async () => {
  await sys?.stop();
});

// 06 never confirms: its expiry check is a delayed job when Redis is emptied.
const SUFFIXES = ['01', '02', '06', '01', '05', '01'];

it('FLUSHALL in the middle of a load loses no cash-in, refund, expiry or webhook', async () => {
  // A failing merchant endpoint first, so webhook retries are waiting in Redis.
  sys.receiver.setMode({ kind: 'status', code: 503 });
  const load = runLoad(sys.api, { prefix: 'flush', count: 40, concurrency: 6, suffixes: SUFFIXES, refundEvery: 3 });
  const loadOutcome = load.then(
    () => null,
    (err: unknown) => err,
  );
  // Retries and expiry checks are waiting in Redis when the flush takes them (new ones follow at once:
  // the load goes on). Read from Redis itself, right before the flush: rows that wait for a retry or a
  // check say a job was scheduled, not that it is still delayed (a 1 s retry may be running by then).
  await until(
    'webhook retries and delayed expiry checks in Redis',
    async () =>
      (await sys.db.webhookEvent.count({ where: { attemptCount: { gte: 1 }, status: 'PENDING' } })) >= 3 &&
      (await sys.db.transaction.count({ where: { status: 'PENDING' } })) >= 2 &&
      (await sys.redis.delayedJobs('webhook-deliveries')) > 0 &&
      (await sys.redis.delayedJobs('expiry-checks')) > 0,
  );
  await sys.redis.flushAll();
  sys.receiver.setMode({ kind: 'ok' });

  expect(await loadOutcome).toBeNull();
  const report = await load;
  await settle(sys);
  expect(await violations(sys)).toEqual([]);
  expect(report.transactionIds).toHaveLength(40);
  expect(report.statuses['500'] ?? 0).toBe(0);
});

it('a Redis server killed and restarted empty in the middle of a load: every service reconnects and nothing is lost', async () => {
  const load = runLoad(sys.api, { prefix: 'restart', count: 40, concurrency: 6, suffixes: SUFFIXES, refundEvery: 3 });
  const loadOutcome = load.then(
    () => null,
    (err: unknown) => err,
  );
  await until(
    'cash-ins of this load in flight',
    async () =>
      (await sys.db.transaction.count({ where: { merchantOrderId: { startsWith: 'restart-' }, status: 'PENDING' } })) >=
      3,
  );

  await sys.redis.restart(1500);

  expect(await loadOutcome).toBeNull();
  const report = await load;
  await settle(sys);
  expect(await violations(sys)).toEqual([]);
  expect(report.transactionIds).toHaveLength(40);
  // Every service is the one started at the beginning: none died of the outage.
  expect(restartedServices(sys)).toEqual([]);
});

/** How long Redis stays away in the outage scenario (CHAOS_REDIS_OUTAGE_MS; the 60 s by default). */
const OUTAGE_MS = Number(process.env.CHAOS_REDIS_OUTAGE_MS ?? 60_000);
/** The gateway's Redis command timeout (1 s) and slack for a loaded machine. */
const ANSWER_BOUND_MS = 3_000;

it(
  `Redis away for ${OUTAGE_MS / 1000} s in the middle of a load (killed, restarted empty): 503s in bounded time meanwhile, reads served, nothing lost`,
  async () => {
    const answers: {
      what: string;
      status: number;
      code?: string;
      retryAfter: string | null;
      startedAt: number;
      ms: number;
    }[] = [];
    const api: Api = async (method, path, body, opts) => {
      const startedAt = Date.now();
      const res: ApiResponse = await sys.api(method, path, body, opts);
      answers.push({
        what: `${method} ${path.split('/')[3]}`,
        status: res.status,
        code: res.body?.error?.code,
        retryAfter: res.headers.get('retry-after'),
        startedAt,
        ms: Date.now() - startedAt,
      });
      return res;
    };
    // Every request is retried by the load until it passes: for longer than the outage.
    const load = runLoad(api, {
      prefix: 'outage',
      count: 40,
      concurrency: 6,
      suffixes: SUFFIXES,
      refundEvery: 3,
      retryForMs: OUTAGE_MS + 90_000,
    });
    const loadOutcome = load.then(
      () => null,
      (err: unknown) => err,
    );
    await until(
      'cash-ins of this load in flight',
      async () =>
        (await sys.db.transaction.count({
          where: { merchantOrderId: { startsWith: 'outage-' }, status: 'PENDING' },
        })) >= 3,
    );

    const from = Date.now();
    await sys.redis.restart(OUTAGE_MS);
    const to = Date.now();

    expect(await loadOutcome).toBeNull();
    const report = await load;
    await settle(sys);
    expect(await violations(sys)).toEqual([]);
    expect(report.transactionIds).toHaveLength(40);
    expect(restartedServices(sys)).toEqual([]);
    // While Redis was away: signed POSTs refused with 503 and Retry-After, reads served, every answer in bounded time.
    // Asked while Redis was away (after the first 2 s, when connections are still being found dead), however
    // late the answer came: a slow one at the end of the outage is judged too.
    const during = answers.filter((a) => a.startedAt >= from + 2_000 && a.startedAt <= to);
    const problems = during.filter(
      (a) =>
        a.ms > ANSWER_BOUND_MS ||
        (a.status >= 500 && (a.status !== 503 || a.code !== 'SERVICE_UNAVAILABLE' || a.retryAfter === null)),
    );
    expect(problems).toEqual([]);
    const posts = during.filter((a) => a.what.startsWith('POST') && a.startedAt + a.ms <= to);
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((a) => a.status === 503)).toBe(true);
    expect(during.some((a) => a.what.startsWith('GET') && a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
  },
  OUTAGE_MS + 240_000,
);

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  await waitFor(async () => (await probe()) || undefined, { what, timeoutMs: 60_000, intervalMs: 50 });
}

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
