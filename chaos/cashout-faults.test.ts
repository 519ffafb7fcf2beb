import { waitFor } from '@mm/testing';
import { Approver, resendCashouts, runCashouts, type AcceptedCashout, type Decision } from './support/cashout-load.js';
import { decisionViolations, merchantBalanceViolations } from './support/cashout-invariants.js';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { settle, violations } from './support/invariants.js';
import { runLoad } from './support/load.js';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Issue 20, point 6: cash-outs in the chaos load. Every bridge killed -9 while payouts are at the
 * operator, and Redis emptied while cash-outs wait for an approver. A cash-out's money leaves twice
 * only if a payout is sent twice under two references, or once more than the operator dedupes; its
 * reservation leaks if it never reaches SUCCESS or FAILED. The invariants hold the rows against the
 * operator's own book and the ledger.
 */
let sys: ChaosSystem;
let approver: Approver;

/** Low, so the merchant's float covers many approvals; the daily totals are out of the way (e2e/cashout-splitting.test.ts has them). */
const THRESHOLD = 100_000;

beforeAll(async () => {
  sys = await startChaosSystem({
    suite: 'cashout-faults',
    env: {
      gateway: {
        DISBURSEMENT_ENABLED: 'true',
        CASHOUT_APPROVAL_THRESHOLD: String(THRESHOLD),
        CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: '1000000000000',
        CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: '1000000000000',
      },
    },
  });
  approver = await Approver.create(sys);
  // The float every cash-out is reserved from: captured cash-ins (numbers ending 01 pay).
  await runLoad(sys.api, { prefix: 'fund', count: 4, concurrency: 4, suffixes: ['01'], amount: () => 1_000_000 });
  // settle() would let them be PENDING still (inside their window): the float is there once they are SUCCESS.
  await waitFor(
    async () =>
      (await sys.db.transaction.count({ where: { merchantOrderId: { startsWith: 'fund-' }, status: 'SUCCESS' } })) ===
        4 || undefined,
    { what: 'the funding cash-ins captured', timeoutMs: 60_000 },
  );
});
afterAll(async () => {
  await sys?.stop();
});

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A load's failure, kept until awaited (an unawaited rejection would end the run). */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => err,
  );

it('kill -9 of every bridge while payouts are at the operator: each cash-out paid at most once, none stuck, reservations released or paid', async () => {
  // A slow operator: each payout is at the operator for a while, and the simulator still pays one whose
  // caller was killed (its partner-faults latency), so the restarted bridge finds it already decided.
  await sys.simulator.setFaults({ latency_ms: 1200 });
  const approvals: Promise<Decision>[] = [];
  const cashouts = runCashouts(sys.api, {
    prefix: 'kill',
    count: 24,
    concurrency: 6,
    // Every fourth waits for the approver, who approves it while the faults happen.
    amount: (i) => (i % 4 === 3 ? THRESHOLD + i * 1000 : 5_000 + i * 500),
    // 11 and 12: the operator refuses the payout and the reservation must come back.
    suffixes: ['01', '03', '11', '01', '07', '12'],
    onAwaiting: (c) => approvals.push(delay(200).then(() => approver.approve(c.id))),
  });
  const cashins = runLoad(sys.api, {
    prefix: 'kill-in',
    count: 12,
    concurrency: 2,
    suffixes: ['01', '02', '01', '05'],
    refundEvery: 4,
  });
  const failed = [outcome(cashouts), outcome(cashins)];

  // Twice, so payouts that approvals sent after the first restart are cut too. A kill must catch a payout
  // sent (its cash-out INITIATED, its job still held): one may finish between the look and the kill, and
  // then the bridges are started and killed again.
  const bridges = sys.instances.bridge;
  const cuts: { id: string; providerReference: string }[][] = [];
  let paidWhileDown = 0;
  try {
    for (let round = 0; round < 2; round++) {
      let cut: { id: string; providerReference: string }[] = [];
      for (let tries = 0; tries < 3 && cut.length === 0; tries++) {
        await Promise.all(bridges.map((b) => b.start()));
        await waitFor(async () => (await sentAndHeld()).length > 0 || undefined, {
          what: 'payouts in flight',
          timeoutMs: 60_000,
          intervalMs: 20,
        });
        // A moment for the request to be at the operator (it answers after 1.2 s): not a condition of the checks.
        await delay(300);
        await Promise.all(bridges.map((b) => b.kill()));
        cut = await sentAndHeld();
      }
      cuts.push(cut);
      // Down long enough for the operator to decide what the dead bridges asked, and for more to queue.
      await delay(1500);
      const book = await sys.simulator.disbursements();
      paidWhileDown += cut.filter((c) => book.has(c.providerReference)).length;
    }
  } finally {
    await Promise.all(bridges.map((b) => b.start()));
  }

  expect(await Promise.all(failed)).toEqual([null, null]);
  const report = await cashouts;
  await sys.simulator.resetFaults();
  expect(await Promise.all(approvals)).toEqual(approvals.map(() => 'decided'));
  await settle(sys);

  expect([
    ...(await violations(sys)),
    ...(await decisionViolations(sys, report.cashouts, approver)),
    ...(await merchantBalanceViolations(sys)),
  ]).toEqual([]);
  expect(cuts.map((c) => c.length > 0)).toEqual([true, true]);
  expect(report.cashouts).toHaveLength(24);
  expect(report.statuses['500'] ?? 0).toBe(0);
  expect(approvals).toHaveLength(6);
  // What the kills caught: payouts the operator decided while no bridge ran, which the restarted bridge
  // could only learn by asking again with the same reference.
  const caught = await sys.db.transaction.findMany({
    where: { id: { in: cuts.flat().map((c) => c.id) } },
    select: { status: true },
  });
  console.info(
    `cashout-faults kill: ${cuts.map((c) => c.length).join('+')} payouts cut in flight, ${paidWhileDown} decided by the operator while the bridge was down; now ${JSON.stringify(tally(caught.map((t) => t.status)))}`,
  );
});

it('FLUSHALL with cash-outs awaiting approval, then approved (one rejected, one left waiting): each approved one paid once, the rejected one released', async () => {
  await sys.simulator.setFaults({ latency_ms: 300 });
  const waiting: AcceptedCashout[] = [];
  const cashins = runLoad(sys.api, {
    prefix: 'flush-in',
    count: 12,
    concurrency: 2,
    suffixes: ['01', '02', '06', '01'],
    refundEvery: 3,
  });
  const cashinsFailed = outcome(cashins);
  const report = await runCashouts(sys.api, {
    prefix: 'flush',
    count: 16,
    concurrency: 4,
    // Every other one waits for the approver; some of those go to numbers whose payout the operator refuses (11).
    amount: (i) => (i % 2 === 0 ? THRESHOLD + i * 1000 : 4_000 + i * 300),
    suffixes: ['01', '01', '11', '05', '01'],
    onAwaiting: (c) => waiting.push(c),
  });
  expect(waiting).toHaveLength(8);
  const [approvedBefore, rejected, untouched, ...approvedAfter] = waiting as [
    AcceptedCashout,
    AcceptedCashout,
    AcceptedCashout,
    ...AcceptedCashout[],
  ];

  // One approved just before: its operator request is an outbox row on its way to Redis, or a job in it, when Redis is emptied.
  expect(await approver.approve(approvedBefore.id)).toBe('decided');
  await sys.redis.flushAll();

  // Merchants unsure of their answers send every cash-out again: the replay guard's keys are gone, and
  // the database must still answer each with the cash-out it has (200), never a second one.
  const resendStatuses: Record<string, number> = {};
  const resent = await resendCashouts(sys.api, report.cashouts, resendStatuses);
  expect(await approver.reject(rejected.id, 'chaos: beneficiary not known to the merchant')).toBe('decided');
  for (const c of approvedAfter) expect(await approver.approve(c.id)).toBe('decided');
  // A second approver's click on what is already decided changes nothing.
  expect(await approver.approve(approvedAfter[0]!.id)).toBe('already_decided');
  expect(await approver.approve(rejected.id)).toBe('already_decided');

  expect(await cashinsFailed).toBeNull();
  await sys.simulator.resetFaults();
  await settle(sys);

  expect([
    ...resent,
    ...(await violations(sys)),
    ...(await decisionViolations(sys, report.cashouts, approver)),
    ...(await merchantBalanceViolations(sys)),
  ]).toEqual([]);
  expect(report.cashouts).toHaveLength(16);
  expect((report.statuses['500'] ?? 0) + (resendStatuses['500'] ?? 0)).toBe(0);
  expect(await sys.db.transaction.findUnique({ where: { id: untouched.id }, select: { status: true } })).toEqual({
    status: 'AWAITING_APPROVAL',
  });
  const decided = await sys.db.transaction.findMany({
    where: { id: { in: [approvedBefore, ...approvedAfter].map((c) => c.id) } },
    select: { status: true, failureCode: true },
  });
  console.info(
    `cashout-faults flush: approved ${decided.length}, now ${JSON.stringify(tally(decided.map((t) => `${t.status}${t.failureCode ? `/${t.failureCode}` : ''}`)))}`,
  );
});

/** Cash-outs sent to the operator (INITIATED) whose payout job a bridge holds right now. */
async function sentAndHeld(): Promise<{ id: string; providerReference: string }[]> {
  const ids = (await sys.redis.activePayloads('cashout-requests')).map((p) => String(p.transaction_id));
  if (ids.length === 0) return [];
  return sys.db.transaction.findMany({
    where: { id: { in: ids }, status: 'INITIATED' },
    select: { id: true, providerReference: true },
  });
}

function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
