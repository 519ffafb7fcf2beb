import { signedClient, waitFor } from '@mm/testing';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { restartedServices, settle, violations } from './support/invariants.js';
import { runLoad, type Api } from './support/load.js';
import type { PrivatePostgres } from '@mm/testing';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Scenario 7 (issue 20): PostgreSQL fails in the middle of a load, on a cluster of the suite's own: killed
 * -9 and restarted, every connection terminated at once, one merchant's balance rows locked past any
 * request's budget, every connection slot taken. While it fails the API answers fast and honestly (503
 * SERVICE_UNAVAILABLE with Retry-After, never a 500, never a hang) and the gateway says it is not ready;
 * once it is back nothing is lost, doubled or stuck.
 */
let sys: ChaosSystem;
let postgres: PrivatePostgres;

/**
 * The longest an API request may take while the database fails: the 2 s the gateway gives the database
 * before it answers 503, and slack for a loaded two-core machine.
 */
const ANSWER_BOUND_MS = 2_000 + 1_000;
/** A request with no answer by then is recorded as hung (and the load sends it again). */
const HUNG_MS = 10_000;
/** Cash-ins of each load. */
const LOAD = 24;
// Mostly successes (every third refunded, half then the rest), failures, one that never confirms (06:
// its expiry check runs through the fault), one whose refunds the operator rejects (10).
const SUFFIXES = ['01', '02', '01', '06', '10', '01'];
const REFUND_EVERY = 3;

beforeAll(async () => {
  sys = await startChaosSystem({ suite: 'postgres-faults', privatePostgres: true });
  postgres = sys.postgres!;
});
afterAll(async () => {
  await sys?.stop();
});

it('killed -9 in the middle of a load and restarted 3 s later: 503s while it is down, nothing lost once it is back', async () => {
  await underFault('pg-kill', {
    notReadyMeanwhile: true,
    brokenMs: 3_000,
    async inject() {
      await postgres.killImmediate();
      return () => postgres.restart();
    },
  });
});

it('every connection of the services terminated at once, in the middle of transactions: 503s, never a 500', async () => {
  await underFault('pg-terminate', {
    notReadyMeanwhile: false,
    brokenMs: 1_000,
    async inject() {
      // Once when a transaction is open, then twice more as the pools reconnect.
      for (let shot = 0; shot < 3; shot++) {
        if (shot > 0) await sleep(700);
        await waitFor(
          async () => (await postgres.terminateAll(sys.database.name, { onlyMidTransaction: true })).terminated > 0,
          { what: 'a transaction open to cut', timeoutMs: 30_000, intervalMs: 5 },
        );
      }
      return async () => undefined;
    },
  });
});

it("one merchant's balance rows locked for longer than any request may wait: its requests answer 503 in time, then go through", async () => {
  await underFault('pg-lock', {
    notReadyMeanwhile: false,
    brokenMs: 5_000,
    async inject() {
      // The rows ledger_post updates (…_ledger_post_function/migration.sql): every posting of the merchant
      // (refund accepted, cash-in credited) waits on them.
      const lock = await postgres.holdInTransaction(
        sys.database.name,
        'SELECT id FROM ledger_accounts WHERE merchant_id = $1 FOR UPDATE',
        [sys.merchant.id],
      );
      expect(lock.rows.length).toBeGreaterThan(0);
      return () => lock.release();
    },
  });
});

it('every connection slot taken (max_connections reached) for a few seconds: 503s and not ready, then back', async () => {
  await underFault('pg-full', {
    notReadyMeanwhile: true,
    brokenMs: 4_000,
    async inject() {
      const full = await postgres.connectionsUntilRefused(sys.database.name);
      return () => full.release();
    },
  });
});

interface Fault {
  /** Whether the gateway's /ready must answer non-200 the whole time the database is broken. */
  notReadyMeanwhile: boolean;
  /** How long it stays broken once inject() has returned. */
  brokenMs: number;
  /** Breaks the database; returns what repairs it. */
  inject(): Promise<() => Promise<void>>;
}

/**
 * A load, then the fault while probes send a cash-in, a status read and a refund every 100 ms; every
 * answer from the fault's start to its repair is judged against the bound, then the system must settle
 * with the invariants of every other scenario.
 */
async function underFault(prefix: string, fault: Fault): Promise<void> {
  const answers: Answer[] = [];
  const api = recording(answers);
  const load = runLoad(api, { prefix, count: LOAD, concurrency: 4, suffixes: SUFFIXES, refundEvery: REFUND_EVERY });
  const loadOutcome = load.then(
    () => null,
    (err: unknown) => err,
  );
  const targets = await warmedUp(prefix);

  let faulty = true;
  // Until the repair starts: once it has, the gateway may rightly be ready again.
  let broken = true;
  const probes = probe(api, prefix, targets, () => faulty);
  const from = Date.now();
  let readiness: Promise<(number | null)[]> = Promise.resolve([]);
  try {
    const repair = await fault.inject();
    if (fault.notReadyMeanwhile) readiness = readyAnswers(() => broken);
    await sleep(fault.brokenMs);
    broken = false;
    await repair();
  } finally {
    // A failed injection or repair stops the probes too: the next scenario starts clean.
    broken = false;
    faulty = false;
  }
  const to = Date.now();
  await probes;
  const ready = await readiness;

  expect(await loadOutcome).toBeNull();
  const report = await load;
  await settle(sys);
  const during = answers.filter((a) => a.startedAt <= to && a.startedAt + a.ms >= from);
  expect({
    invariants: await violations(sys),
    cashIns: report.transactionIds.length,
    // None died of the fault: each is still the one the suite started.
    services: restartedServices(sys),
    notReady: fault.notReadyMeanwhile ? readyProblems(ready) : [],
    answers: answerProblems(answers, during),
  }).toEqual({ invariants: [], cashIns: LOAD, services: [], notReady: [], answers: [] });
}

interface Answer {
  /** Method and route (ids replaced). */
  what: string;
  startedAt: number;
  ms: number;
  /** null: no answer (hung past HUNG_MS, or the connection failed). */
  status: number | null;
  code?: string;
  retryAfter: string | null;
}

/** The merchant's client, giving up after HUNG_MS, recording every answer. */
function recording(answers: Answer[]): Api {
  const send: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(HUNG_MS) });
  const call = signedClient(sys.gatewayUrl, sys.merchant.apiKey, sys.merchant.apiSecret, send);
  return async (method, path, body, opts) => {
    const what = `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id')}`;
    const startedAt = Date.now();
    try {
      const res = await call(method, path, body, opts);
      const code = (res.body as { error?: { code?: string } } | null)?.error?.code;
      answers.push({
        what,
        startedAt,
        ms: Date.now() - startedAt,
        status: res.status,
        code,
        retryAfter: res.headers.get('retry-after'),
      });
      return res;
    } catch (err) {
      answers.push({ what, startedAt, ms: Date.now() - startedAt, status: null, retryAfter: null });
      throw err;
    }
  };
}

/**
 * What the probes need of the load before the fault: cash-ins it has credited (so the merchant's balance
 * rows exist) and will not refund itself. The probes refund them 100 at a time: the load's own refunds
 * (half, then the rest) never meet a probe's.
 */
async function warmedUp(prefix: string): Promise<{ statusOf: string; refundable: string[] }> {
  const mine = Array.from({ length: LOAD }, (_, i) => i)
    .filter((i) => i % REFUND_EVERY !== 0)
    .map((i) => `${prefix}-${i}`);
  const ids = await waitFor(
    async () => {
      const done = await sys.db.transaction.findMany({
        where: { merchantOrderId: { in: mine }, status: 'SUCCESS' },
        select: { id: true },
      });
      return done.length >= 3 ? done.map((t) => t.id) : undefined;
    },
    { what: `cash-ins of ${prefix} credited`, timeoutMs: 60_000, intervalMs: 50 },
  );
  return { statusOf: ids[0]!, refundable: ids.slice(0, 3) };
}

/** A cash-in, a status read and a refund, each sent again 100 ms after its answer while `faulty()`. */
async function probe(
  api: Api,
  prefix: string,
  targets: { statusOf: string; refundable: string[] },
  faulty: () => boolean,
): Promise<void> {
  const loop = async (send: (n: number) => Promise<unknown>) => {
    for (let n = 0; faulty(); n++) {
      await send(n).catch(() => undefined);
      await sleep(100);
    }
  };
  await Promise.all([
    loop((n) =>
      api('POST', '/api/v1/payments/cashin', {
        merchant_order_id: `${prefix}-probe-${n}`,
        amount: 1000,
        customer_msisdn: '+2250707000001',
      }),
    ),
    loop(() => api('GET', `/api/v1/payments/${targets.statusOf}`)),
    loop((n) =>
      api(
        'POST',
        '/api/v1/refunds',
        { transaction_id: targets.refundable[n % targets.refundable.length], amount: 100, reason: `probe ${n}` },
        { extraHeaders: { 'Idempotency-Key': `${prefix}-probe-r${n}` } },
      ),
    ),
  ]);
}

/** The gateway's /ready every 250 ms while `broken()`: status, or null for no answer in 5 s. */
async function readyAnswers(broken: () => boolean): Promise<(number | null)[]> {
  const seen: (number | null)[] = [];
  while (broken()) {
    const res = await fetch(sys.services.gateway.spec.readyUrl, { signal: AbortSignal.timeout(5_000) }).catch(
      () => null,
    );
    // An answer that came once the repair had started says nothing of the fault.
    if (broken()) seen.push(res?.status ?? null);
    await sleep(250);
  }
  return seen;
}

function readyProblems(seen: (number | null)[]): string[] {
  if (seen.length === 0) return ['/ready never asked while the database was down'];
  const bad = seen.filter((s) => s === 200 || s === null);
  return bad.length === 0
    ? []
    : [`/ready answered ${JSON.stringify(seen)} while the database was down (200: ready; null: no answer in 5 s)`];
}

/**
 * Every answer that breaks the promise, grouped by route and answer: a 5xx other than 503
 * SERVICE_UNAVAILABLE with Retry-After or no answer, at any time; slower than ANSWER_BOUND_MS during the
 * fault (outside it, a cash-in may wait for its push on a loaded machine). With them, when there are
 * any, every answer seen during the fault.
 */
function answerProblems(all: Answer[], during: Answer[]): string[] {
  const honest = (a: Answer) =>
    a.status !== null &&
    (a.status < 500 || (a.status === 503 && a.code === 'SERVICE_UNAVAILABLE' && a.retryAfter !== null));
  const bad = all.filter((a) => !honest(a) || (a.ms > ANSWER_BOUND_MS && during.includes(a)));
  if (bad.length === 0) return [];
  const describe = (list: Answer[]) => {
    const groups = new Map<string, number[]>();
    for (const a of list) {
      const key = `${a.what} → ${a.status ?? 'no answer'}${a.code ? ` ${a.code}` : ''}${a.status === 503 && a.retryAfter === null ? ' (no Retry-After)' : ''}`;
      groups.set(key, [...(groups.get(key) ?? []), a.ms]);
    }
    return [...groups].map(([key, ms]) => `${key}: ${ms.length}×, ${Math.min(...ms)}–${Math.max(...ms)} ms`);
  };
  return [
    ...describe(bad).map((d) => `broken: ${d} (bound ${ANSWER_BOUND_MS} ms)`),
    ...describe(during).map((d) => `seen: ${d}`),
  ];
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
