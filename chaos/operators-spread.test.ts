import { waitFor } from '@mm/testing';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { settle, violations } from './support/invariants.js';
import { runLoad } from './support/load.js';
import { OperatorRecords } from './support/operator-records.js';
import { reconcileAll } from './support/reconcile-all.js';

/**
 * Scenario: cash-ins spread across the simulator and the real operators' contract mocks (MTN MoMo in
 * Côte d'Ivoire and Cameroon, Orange Money mp in Cameroon, all routed by number; Wave, named), with
 * successes, failures, customers who never answer (EXPIRED) and late confirmations (EXPIRED, then taken by
 * the operator), refunds of some successes (MTN's asynchronous refund, Wave's full refund, Orange mp's
 * missing refund API), and a kill -9 of the operator bridge in the middle. Each operator's own record
 * (its mock's /_mock/records) is held against our rows: one payment created at the operator per
 * transaction, credited iff the operator took the money, refunds paid as recorded, the ledger, one
 * webhook per terminal change.
 */
let sys: ChaosSystem;

beforeAll(async () => {
  sys = await startChaosSystem({
    suite: 'operators-spread',
    operatorMocks: true,
    // Unsigned callbacks (MTN, Orange) are only hints, and those sent while the bridge is down are lost:
    // status polls make up for them.
    statusPollS: '1,2,4',
    confirmationTimeoutS: 6,
    // 09 numbers: the operator takes the money after our confirmation timeout (EXPIRED, then SUCCESS).
    lateConfirmDelayMs: 9_000,
  });
});
afterAll(async () => {
  await sys?.stop();
});

/** Each cash-in's operator in turn; its customer's number routes it there (Wave: named). */
const OPERATORS = [
  { name: 'SIMULATOR', number: (_n: string, s: string) => `+22507070000${s}` },
  { name: 'MTN CI', number: (n: string, s: string) => `+22505${n.padStart(6, '0')}${s}` },
  { name: 'MTN CM', number: (n: string, s: string) => `+2376755${n.padStart(3, '0')}${s}` },
  { name: 'ORANGE CM (mp)', number: (n: string, s: string) => `+237691${n.padStart(4, '0')}${s}` },
  { name: 'WAVE CI', number: (n: string, s: string) => `+22505${String(500_000 + Number(n))}${s}`, operator: 'WAVE' },
] as const;
/** Per round: success, insufficient funds, declined, never confirms (EXPIRED), confirmed late (EXPIRED -> SUCCESS). */
const SUFFIXES = ['01', '02', '01', '05', '06', '01', '09', '01'];
const COUNT = OPERATORS.length * SUFFIXES.length;

function customer(i: number): { msisdn: string; operator?: string } {
  const op = OPERATORS[i % OPERATORS.length]!;
  const suffix = SUFFIXES[Math.floor(i / OPERATORS.length) % SUFFIXES.length]!;
  // A number of its own per cash-in: Orange refuses the same number and amount twice within a minute.
  return { msisdn: op.number(String(i), suffix), ...('operator' in op ? { operator: op.operator } : {}) };
}

/** merchant_order_id of the cash-ins whose operator takes the money only after our confirmation timeout. */
const lateOrders = () =>
  Array.from({ length: COUNT }, (_, i) => i)
    .filter((i) => customer(i).msisdn.endsWith('09'))
    .map((i) => `spread-${i}`);

/** Wave refunds a checkout in full only, Orange mp not at all (the refund FAILS): one full refund; others half, then the rest. */
function refundAmounts(i: number, amount: number): number[] {
  const op = OPERATORS[i % OPERATORS.length]!.name;
  if (op === 'WAVE CI' || op === 'ORANGE CM (mp)') return [amount];
  const half = Math.floor(amount / 2);
  return [half, amount - half];
}

describe("cash-ins spread across the real operators' mocks, kill -9 of the bridge in the middle", () => {
  it("each operator's own record agrees with ours: one payment per transaction, money iff taken, refunds as paid", async () => {
    const started = Date.now();
    const load = runLoad(sys.api, {
      prefix: 'spread',
      count: COUNT,
      concurrency: 8,
      suffixes: SUFFIXES,
      customer,
      refundAmounts,
      refundEvery: 3,
    });
    const failedLoad = load.then(
      () => null,
      (err: unknown) => err,
    );

    // Mid-load, a third of the cash-ins in: each real operator does the next pushes but their answers are
    // lost (held past the adapter's timeout, or the connection dropped), and the bridge is killed while it
    // waits for one of them: the operator has the payment, we do not know it yet.
    await waitFor(async () => (await sys.db.transaction.count()) >= COUNT / 3 || undefined, {
      what: 'a third of the load in',
      timeoutMs: 60_000,
      intervalMs: 20,
    });
    const mocks = sys.operators!;
    await mocks.fault('mtnCi', { operation: 'requesttopay', hangMs: 8_000, afterProcessing: true, times: 2 });
    await mocks.fault('mtnCm', { operation: 'requesttopay', hangMs: 8_000, afterProcessing: true, times: 2 });
    await mocks.fault('orangeMp', { operation: 'pay', fault: { kind: 'drop-after' }, times: 2 });
    await mocks.fault('wave', { operation: 'createSession', lostAnswerMs: 8_000, times: 2 });
    const heldAt = await waitFor(
      async () => {
        const inFlight = (await sys.redis.activePayloads('operator-requests')).map((j) => String(j.transaction_id));
        const held = await sys.db.transaction.findMany({
          where: { id: { in: inFlight }, status: { in: ['CREATED', 'INITIATED'] }, operator: { not: 'SIMULATOR' } },
        });
        const operators = await OperatorRecords.read(sys);
        const done = held.filter((t) => operators.view(t) !== undefined);
        return done.length > 0 ? done.map((t) => `${t.operator} ${t.countryCode} ${t.id}`) : undefined;
      },
      { what: 'a push done at a real operator, its answer not back to the bridge', timeoutMs: 30_000, intervalMs: 10 },
    );
    try {
      await sys.services.bridge.kill();
      // Down until cash-ins wait for it (accepted, never pushed), so the restarted bridge has work to take over.
      await waitFor(
        async () =>
          (await sys.db.transaction.count({ where: { status: { in: ['CREATED', 'INITIATED'] } } })) >= 3 || undefined,
        { what: 'cash-ins waiting for the bridge', timeoutMs: 30_000, intervalMs: 50 },
      );
    } finally {
      await sys.services.bridge.start();
    }

    expect(await failedLoad).toBeNull();
    const report = await load;
    // Every cash-in decided here, and every late one taken by its operator (after our expiry): only then
    // does settle() prove that each of them converged (EXPIRED -> SUCCESS) rather than that none came yet.
    const late = await sys.db.transaction.findMany({ where: { merchantOrderId: { in: lateOrders() } } });
    await waitFor(
      async () =>
        (await sys.db.transaction.count({ where: { status: { in: ['CREATED', 'INITIATED', 'PENDING'] } } })) === 0 ||
        undefined,
      { what: 'every cash-in decided', timeoutMs: 60_000, intervalMs: 250 },
    );
    await waitFor(
      async () => {
        const operators = await OperatorRecords.read(sys);
        return late.every((t) => operators.view(t)?.taken) || undefined;
      },
      { what: 'the operators to take the late payments', timeoutMs: 60_000, intervalMs: 250 },
    );
    await settle(sys, 150_000);
    const found = await violations(sys);

    const rows = await sys.db.transaction.findMany({
      select: { countryCode: true, operator: true, status: true, refunds: { select: { status: true } } },
    });
    const summary: Record<string, Record<string, number>> = {};
    for (const t of rows) {
      const s = (summary[`${t.operator} ${t.countryCode}`] ??= {});
      s[t.status] = (s[t.status] ?? 0) + 1;
      for (const r of t.refunds) s[`refund ${r.status}`] = (s[`refund ${r.status}`] ?? 0) + 1;
    }
    console.log(
      `operators-spread: ${COUNT} cash-ins settled in ${Math.round((Date.now() - started) / 1000)} s; bridge killed while ${heldAt.join(', ')} waited for the operator's answer\n${JSON.stringify(summary, null, 1)}`,
    );

    expect(found).toEqual([]);
    expect(report.transactionIds).toHaveLength(COUNT);
    expect(report.statuses['500'] ?? 0).toBe(0);
    expect(sys.services.bridge.starts).toBe(2);
    // The load reached every operator with every outcome: otherwise the invariants above prove little.
    for (const key of ['SIMULATOR CI', 'MTN CI', 'MTN CM', 'ORANGE CM', 'WAVE CI']) {
      expect({
        [key]: Object.keys(summary[key] ?? {})
          .filter((k) => !k.startsWith('refund'))
          .sort(),
      }).toEqual({ [key]: expect.arrayContaining(['FAILED', 'EXPIRED']) });
      expect((summary[key]!.SUCCESS ?? 0) + (summary[key]!.REVERSED ?? 0)).toBeGreaterThan(0);
    }
    // Refunds through each kind: MTN's paid (asynchronously), Wave's full one paid, Orange mp's FAILED (no refund API).
    expect(summary['MTN CI']!['refund SUCCESS']).toBeGreaterThan(0);
    expect(summary['WAVE CI']!['refund SUCCESS']).toBeGreaterThan(0);
    expect(summary['ORANGE CM']!['refund FAILED']).toBeGreaterThan(0);
    expect(summary['ORANGE CM']!['refund SUCCESS'] ?? 0).toBe(0);
    // Every day of every operator account reconciles with its operator's own books: nothing for a person.
    const reconciled = await reconcileAll(sys);
    expect(reconciled.map((r) => [r.operator, r.date, r.open_cases, r.errors])).toEqual(
      reconciled.map((r) => [r.operator, r.date, 0, []]),
    );
    expect(reconciled.map((r) => r.operator).sort()).toEqual(
      expect.arrayContaining(['MTN', 'ORANGE', 'SIMULATOR', 'WAVE']),
    );
    expect(reconciled.reduce((n, r) => n + r.matched, 0)).toBeGreaterThanOrEqual(COUNT);
    // Each late payment expired here first, then converged to the operator's SUCCESS.
    const lateEvents = await sys.db.transactionEvent.findMany({
      where: { transactionId: { in: late.map((t) => t.id) } },
      orderBy: { id: 'asc' },
    });
    for (const t of late) {
      expect({
        [`${t.operator} ${t.countryCode} ${t.id}`]: lateEvents
          .filter((e) => e.transactionId === t.id)
          .map((e) => e.toStatus),
      }).toEqual({ [`${t.operator} ${t.countryCode} ${t.id}`]: expect.arrayContaining(['EXPIRED', 'SUCCESS']) });
    }
  });
});
