import { waitFor } from '@mm/testing';
import { startChaosSystem, type ChaosSystem, type ServiceName } from './support/chaos-system.js';
import { settle, violations } from './support/invariants.js';
import { killWhileHolding } from './support/kill-while-holding.js';
import { runLoad } from './support/load.js';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Scenario 1: kill -9 each worker service while it holds jobs, in the middle of a load of cash-ins
 * and refunds, then start it again. Its locked jobs are taken over once their lock expires
 * (WORKER_LOCK_MS), its lost outbox work is re-published by the relay, and nothing is lost or done twice.
 */
let sys: ChaosSystem;

beforeAll(async () => {
  sys = await startChaosSystem({ suite: 'worker-crashes' });
});
afterAll(async () => {
  await sys?.stop();
});

/** The queue whose active jobs show that the service is in the middle of its work. */
const WORK: Record<'bridge' | 'expiry' | 'refunds' | 'dispatcher', string> = {
  bridge: 'operator-requests',
  expiry: 'expiry-checks',
  refunds: 'refund-requests',
  dispatcher: 'webhook-deliveries',
};

// Mostly successes (refunded in part, then in full), some failures, some that expire (06), some
// whose refunds the operator rejects (10).
const SUFFIXES = ['01', '02', '01', '06', '05', '01', '10', '03'];

describe.each(Object.keys(WORK) as (keyof typeof WORK & ServiceName)[])('kill -9 of the %s', (name) => {
  it('in the middle of its work loses nothing and does nothing twice', async () => {
    // Slow operator and merchant: every job of every worker is in flight for a while.
    await sys.simulator.setFaults({ latency_ms: 400 });
    sys.receiver.setMode({ kind: 'slow', delayMs: 300 });
    const load = runLoad(sys.api, {
      prefix: `kill-${name}`,
      count: 48,
      concurrency: 8,
      suffixes: SUFFIXES,
      refundEvery: 3,
    });
    const failedLoad = load.then(
      () => null,
      (err: unknown) => err,
    );

    // Cut in the middle: jobs it held are still active after the kill.
    let cut: string[] = [];
    let kills = 0;
    try {
      ({ cut, kills } = await killWhileHolding(sys, name, WORK[name], () => sys.redis.activeJobIds(WORK[name])));
      expect(cut.length).toBeGreaterThan(0);
      // Down long enough for work to pile up behind it.
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      // Whatever happened above, the next scenarios need the service.
      await sys.services[name].start();
    }

    expect(await failedLoad).toBeNull();
    const report = await load;
    await sys.simulator.resetFaults();
    sys.receiver.setMode({ kind: 'ok' });
    await settle(sys);

    expect(await violations(sys)).toEqual([]);
    expect(report.transactionIds).toHaveLength(48);
    expect(report.statuses['500'] ?? 0).toBe(0);
    // Started once with the system and once after each kill, never by anything else.
    expect(sys.services[name].starts).toBe(1 + kills);
    // Taken over after the lock expired and finished: none of the cut jobs is still active.
    expect((await sys.redis.activeJobIds(WORK[name])).filter((id) => cut.includes(id))).toEqual([]);
  });
});

describe('SIGTERM of the bridge in the middle of its work', () => {
  it('finishes the pushes in flight before it exits 0, and leaves nothing locked', async () => {
    await sys.simulator.setFaults({ latency_ms: 800 });
    const load = runLoad(sys.api, { prefix: 'term-bridge', count: 12, concurrency: 6, suffixes: ['01'] });
    const failedLoad = load.then(
      () => null,
      (err: unknown) => err,
    );
    const inFlight = await waitFor(
      async () => {
        const jobs = await sys.redis.activePayloads('operator-requests');
        return jobs.length > 0 ? jobs.map((j) => String(j.transaction_id)) : undefined;
      },
      { what: 'pushes in flight', timeoutMs: 30_000, intervalMs: 20 },
    );

    expect(await sys.services.bridge.stop()).toBe(0);
    // Nobody else consumes operator requests: what moved, the stopping bridge finished.
    const moved = await sys.db.transaction.findMany({ where: { id: { in: inFlight } }, select: { status: true } });
    expect(moved.map((t) => t.status).filter((s) => s === 'CREATED' || s === 'INITIATED')).toEqual([]);
    expect(await sys.redis.activeJobs('operator-requests')).toBe(0);

    await sys.simulator.resetFaults();
    await sys.services.bridge.start();
    expect(await failedLoad).toBeNull();
    await settle(sys);
    expect(await violations(sys)).toEqual([]);
  });
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
