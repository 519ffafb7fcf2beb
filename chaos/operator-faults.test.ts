import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { settle, violations } from './support/invariants.js';
import { runLoad, type LoadReport } from './support/load.js';
import type { SimulatorFaults } from './support/simulator-control.js';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Scenario 4: the operator slow, failing with 5xx, unreachable, frozen, and sending every callback
 * 5 times, out of order, or never. Pushes, status queries and refunds are retried within their
 * bounds, duplicate and stale callbacks change nothing, and lost callbacks are found by status polls.
 */
let sys: ChaosSystem;
const CONFIRMATION_TIMEOUT_S = 10;

beforeAll(async () => {
  sys = await startChaosSystem({
    suite: 'operator-faults',
    confirmationTimeoutS: CONFIRMATION_TIMEOUT_S,
    statusPollS: '1,3',
    operatorTimeoutMs: 1000,
  });
});
afterAll(async () => {
  await sys?.stop();
});
afterEach(async () => {
  await sys.simulator.resetFaults();
});

const SUFFIXES = ['01', '02', '01', '05', '01', '10'];

/** A load with the operator faulty for `faultMs` from its start, then healthy; settled and checked. */
async function loadUnder(prefix: string, faults: SimulatorFaults, faultMs: number): Promise<LoadReport> {
  await sys.simulator.setFaults(faults);
  const load = runLoad(sys.api, { prefix, count: 24, concurrency: 6, suffixes: SUFFIXES, refundEvery: 3 });
  const outcome = load.then(
    () => null,
    (err: unknown) => err,
  );
  await new Promise((r) => setTimeout(r, faultMs));
  await sys.simulator.resetFaults();
  expect(await outcome).toBeNull();
  const report = await load;
  await settle(sys);
  expect(await violations(sys)).toEqual([]);
  expect(report.statuses['500'] ?? 0).toBe(0);
  return report;
}

const ours = (prefix: string) => ({ merchantOrderId: { startsWith: `${prefix}-` } });

it('slow: every call beyond our timeout for longer than all push attempts; pushes that reached the operator are never failed', async () => {
  // 1.5 s per call against a 1 s timeout, for longer than the 4 push attempts and the status query after
  // them (about 12 s): the first cash-ins end their push job without any answer at all.
  // Callbacks lost as well, or a result would overtake the retries.
  await loadUnder('slow', { latency_ms: 1500, callbacks: 'drop' }, 13_000);
  const unknown = await sys.db.transactionEvent.count({
    where: { transaction: ours('slow'), cause: 'push-timeout:outcome-unknown' },
  });
  expect(unknown).toBeGreaterThan(0);
  // The operator registered every one of those pushes late: none may be FAILED, each is what the customer did.
  expect(await sys.db.transaction.count({ where: { ...ours('slow'), failureCode: 'OPERATOR_UNAVAILABLE' } })).toBe(0);
});

it('failing with 503 for a while: pushes, status queries and refunds are retried and complete', async () => {
  await loadUnder('http503', { fail_with_5xx: true }, 2500);
  expect(
    await sys.db.transaction.count({ where: { ...ours('http503'), status: { in: ['SUCCESS', 'REVERSED'] } } }),
  ).toBeGreaterThan(0);
});

it('unreachable (connections reset) for a while: nothing is decided on a guess', async () => {
  await loadUnder('reset', { unreachable: true }, 2500);
});

it('frozen (SIGSTOP, every call hangs) for a while, then thawed', async () => {
  const report = runLoad(sys.api, { prefix: 'frozen', count: 24, concurrency: 6, suffixes: SUFFIXES, refundEvery: 3 });
  const outcome = report.then(
    () => null,
    (err: unknown) => err,
  );
  await new Promise((r) => setTimeout(r, 300));
  sys.services.simulator.pause(true);
  await new Promise((r) => setTimeout(r, 3000));
  sys.services.simulator.pause(false);
  expect(await outcome).toBeNull();
  await settle(sys);
  expect(await violations(sys)).toEqual([]);
});

it('every callback sent 5 times at once: applied once', async () => {
  await loadUnder('repeat', { callbacks: 'repeat', callback_repeat: 5 }, 4000);
  // Each decided transaction moved to its result once.
  const moves = await sys.db.transactionEvent.groupBy({
    by: ['transactionId', 'toStatus'],
    _count: true,
    where: { transaction: ours('repeat') },
  });
  expect(moves.filter((m) => m._count > 1)).toEqual([]);
});

it('callbacks out of order (shuffled, a stale PENDING after the result): the result stands', async () => {
  await loadUnder('shuffle', { callbacks: 'out-of-order', callback_spread_ms: 800 }, 4000);
});

it('callbacks never sent: status polls find every result before the confirmation delay', async () => {
  const started = Date.now();
  await loadUnder('nocb', { callbacks: 'drop' }, 5000);
  const decided = await sys.db.transactionEvent.findMany({
    where: { transaction: ours('nocb'), toStatus: { in: ['SUCCESS', 'FAILED'] }, fromStatus: 'PENDING' },
    select: { cause: true, createdAt: true },
  });
  // Results decided while callbacks were dropped can only have come from the polls, long before expiry.
  const whileDropped = decided.filter((e) => e.createdAt.getTime() < started + 5000);
  expect(whileDropped.length).toBeGreaterThan(0);
  expect(whileDropped.map((e) => e.cause).filter((c) => c !== 'status-poll:operator-result')).toEqual([]);
  expect(await sys.db.transaction.count({ where: { ...ours('nocb'), status: 'EXPIRED' } })).toBe(0);
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
