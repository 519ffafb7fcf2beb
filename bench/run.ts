/**
 * `pnpm bench` (issue 7): the whole system, every service its own process (the chaos suite's
 * system: its own database and Redis server, the simulator confirming at once), loaded from a
 * separate process (load.ts, autocannon) on loopback, next to ceilings measured in the same run: a
 * bare node:http + pg server (ceiling-server.ts) and the same behind Express (the floor) for one
 * statement per request, and the flow ceiling (flow-ceiling/) for a whole cash-in. Prints the table
 * and writes it to docs/performance.md. After each cash-in phase every cash-in must be SUCCESS,
 * notified, and the ledger must verify. BENCH_SECONDS (30) is the length of each load,
 * BENCH_CONNECTIONS (50) the connections of the saturating loads, BENCH_FLOW_CONNECTIONS (64) those of
 * the completed-cash-ins loads, BENCH_WARMUP_SECONDS (10; 0 skips) the unmeasured load of the same kind
 * that comes before each measured one, BENCH_EXPORT_ROWS (1 000 000; 0 skips) the export size,
 * BENCH_PORTAL_ROWS (1 000 000; 0 skips) the merchant portal's big merchant (portal-bench.ts).
 * BENCH_CPU_PROF=<dir> starts every service with --cpu-prof into that folder (profiles on exit);
 * BENCH_PHASES (ceiling,flow,cashin,status,export,portal; `scaling`, `growth` and `links` (link-bench.ts) on request) runs only some phases, e.g. to
 * profile one of them; only a run of every default phase rewrites docs/performance.md. `growth`
 * (BENCH_GROWTH_CASHINS, 500) prints the rows and bytes a cash-in leaves per table and in Redis, before and
 * after retention (growth.ts), for docs/reliability.md. Any error, lost
 * cash-in or ledger problem makes the run exit 1 after printing its table.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startChaosSystem, type ChaosOptions, type ChaosSystem, type ServiceName } from '@mm/chaos/system';
import { EXPIRY_TOPIC } from '@mm/db/payments';
import { waitFor } from '@mm/testing';
import { cpuPerRequest, cpuSnapshot } from './support/cpu.js';
import { exportBench } from './export-bench.js';
import { linkBench } from './link-bench.js';
import { portalBench } from './portal-bench.js';
import { measureGrowth } from './growth.js';
import { flowTally } from './support/flow-sql.js';
import { signatureVerification } from './signature-verification.js';
import { runLoad, startServer } from './support/node-process.js';
import { fmt, pct, writeLatestRun, type Row } from './support/report.js';
import { percentile } from './support/percentile.js';
import { settle, type Settled } from './support/settle.js';
import type { FlowResult, LoadJob, LoadResult } from './support/load-job.js';

const SYSTEM_PHASES = ['ceiling', 'flow', 'cashin', 'status', 'export'];
const DEFAULT_PHASES = [...SYSTEM_PHASES, 'portal'];
const ALL_PHASES = [...DEFAULT_PHASES, 'scaling', 'growth', 'links'];
const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const flowConnections = Number(process.env.BENCH_FLOW_CONNECTIONS ?? 64);
/**
 * A long-running service is measured, not one starting: V8 compiles a process's hot code on its other
 * threads during its first seconds of load (on these two cores, up to a quarter of a service's CPU in the
 * first seconds, a few per cent after ten), and PostgreSQL's connections fill their caches and plans.
 * Every measured load (the ceiling's and the Express floor's, the flow ceiling's, the system's cash-ins
 * and status reads) comes after this much of the same load, unmeasured.
 */
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const exportRows = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const portalRows = Number(process.env.BENCH_PORTAL_ROWS ?? 1_000_000);
const growthCashins = Number(process.env.BENCH_GROWTH_CASHINS ?? 500);
const phases = new Set((process.env.BENCH_PHASES ?? DEFAULT_PHASES.join(',')).split(','));
const unknown = [...phases].filter((p) => !ALL_PHASES.includes(p));
if (unknown.length > 0)
  throw new Error(`BENCH_PHASES: unknown ${unknown.join(', ')} (phases: ${ALL_PHASES.join(', ')})`);
/** How long a completed-cash-ins load waits for its webhooks once it has ended; later ones are lost. */
const WEBHOOK_DEADLINE_S = 60;
/** Processes per service of the scaling phase. */
const REPLICA_COUNTS = [1, 2, 4];
const DOC = fileURLToPath(new URL('../docs/performance.md', import.meta.url));

const names: ServiceName[] = ['simulator', 'gateway', 'bridge', 'expiry', 'refunds', 'dispatcher'];

/**
 * The system as the bench runs it. With replicas, each service's database pool of 10 is shared among
 * its processes (10, 5, 3 each), so that every point of the scaling curve holds as many connections
 * and 4 processes per service stay within PostgreSQL's max_connections (100).
 */
function systemOptions(suite: string, replicas = 1): ChaosOptions {
  const poolSize = String(Math.ceil(10 / replicas));
  return {
    suite,
    replicas,
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
    outcomeDelayMs: 0,
    confirmationTimeoutS: 300,
    statusPollS: '60,150',
    webhookScheduleS: '1,5,30,120',
    webhookTimeoutMs: 5000,
    nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
    env: Object.fromEntries(
      names.map((n) => [
        n,
        {
          // The chaos suite's short timings are for provoking faults; measure production's defaults.
          DB_POOL_SIZE: poolSize,
          OUTBOX_RELAY_INTERVAL_MS: '5000',
          OUTBOX_GRACE_MS: '10000',
          WORKER_LOCK_MS: '30000',
          OPERATOR_TIMEOUT_MS: '10000',
          // One merchant sends all the load: the per-merchant limiter would measure itself.
          ...(n === 'gateway'
            ? { CASHIN_ACK_WAIT_MS: '5000', RATE_LIMIT_PER_S: '100000', RATE_LIMIT_BURST: '100000' }
            : {}),
        },
      ]),
    ),
  };
}

/** CPU seconds so far of each service (summed over its replicas), PostgreSQL and Redis. */
const systemCpu = (s: ChaosSystem) =>
  cpuSnapshot(Object.fromEntries(names.map((n) => [n, s.instances[n].map((i) => i.pid)])));

const rows: Row[] = [];
/** What must not happen in any benchmark: errors, lost cash-ins, a ledger that does not verify. */
const problems: string[] = [];
const check = (phase: string, r: LoadResult, s?: Settled) => {
  if (r.non2xx + r.errors + r.timeouts > 0)
    problems.push(`${phase}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  if (r.flow && r.flow.lost > 0)
    problems.push(
      `${phase}: ${r.flow.lost} cash-ins answered 202 whose SUCCESS webhook did not arrive within ${WEBHOOK_DEADLINE_S} s`,
    );
  if (r.flow && r.flow.badSignatures > 0)
    problems.push(`${phase}: ${r.flow.badSignatures} webhooks whose signature did not verify`);
  if (r.flow && r.flow.completed === 0) problems.push(`${phase}: no cash-in completed`);
  if (s && s.lost > 0) problems.push(`${phase}: ${s.lost} cash-ins lost (not SUCCESS, or not notified)`);
  if (s && !s.ledgerOk) problems.push(`${phase}: ledger does not verify: ${s.ledgerProblems.join('; ')}`);
};
const lat = (r: LoadResult) => `p50 ${r.p50} ms, p99 ${r.p99} ms`;
/** A load of the ceiling or the Express floor, with its server's CPU per request ("server 0.31, postgres 0.12 (total 0.45)"). */
type Measured = LoadResult & { cpu: string };
/** What went wrong in a load, and how much of the machine the hypervisor took meanwhile (ratios of two phases are fair only if it took the same). */
const loadNotes = (r: LoadResult) =>
  `${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; CPU stolen by the host ${r.stolenPercent ?? 0}%`;
const outcome = (s: Settled) =>
  `${s.lost} lost; ${JSON.stringify(s.statuses)}; ledger ${s.ledgerOk ? 'OK' : `WRONG: ${s.ledgerProblems.join('; ')}`}`;
/** The completed-cash-ins figures of a flow load, for the notes. */
const completedNotes = (f: FlowResult) =>
  `${f.completed} of ${f.accepted} cash-ins answered 202 notified in ${f.seconds.toFixed(1)} s (last webhook ${f.drainS.toFixed(1)} s after the load), ` +
  `${f.lost} lost${f.duplicates > 0 ? `, ${f.duplicates} duplicate webhooks` : ''}; ${f.notified} notified in all (with those the end of the load cut off)`;
/** Completed cash-ins per second of the flow ceiling; NaN (ratios "—") without the flow phase. */
let flowPerS = NaN;

if (SYSTEM_PHASES.some((p) => phases.has(p))) await systemPhases();
if (phases.has('portal')) rows.push(...(await portalBench(portalRows, (p) => problems.push(p))));
if (phases.has('scaling')) await scaling();
if (phases.has('growth')) await growth();
if (phases.has('links')) rows.push(...(await linkBench()));

// Two lines, so that docs/performance.md keeps its prose within 120 characters (pnpm lint:docs).
const heading =
  `Latest run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${seconds} s per load, ${connections} connections (${flowConnections} for completed cash-ins),\n` +
  `${availableParallelism()} cores, everything on one machine.`;
if (rows.length > 0) {
  console.log(`\n${heading}\n`);
  console.table(rows);
}
if (DEFAULT_PHASES.every((p) => phases.has(p))) {
  writeLatestRun(DOC, heading, rows);
  console.log(`written to ${DOC}`);
} else {
  console.log('some phases only: docs/performance.md left as it is');
}
if (problems.length > 0) {
  console.error(`\nFAILED:\n${problems.join('\n')}`);
  process.exitCode = 1;
}

/** Every default phase that was asked for, on one system started for them. */
async function systemPhases(): Promise<void> {
  const sys = await startChaosSystem(systemOptions('bench'));
  const cpu = () => systemCpu(sys);
  const api = { apiKey: sys.merchant.apiKey, apiSecret: sys.merchant.apiSecret };
  try {
    const ceiling = phases.has('ceiling') ? await measureCeiling(sys) : null;
    // Without the ceiling phase there is nothing to divide by: the ratios read "—".
    const selectRps = ceiling?.select.rps ?? NaN;
    const floorSelectRps = ceiling?.floorSelect.rps ?? NaN;
    if (ceiling) {
      const { insert, select } = ceiling;
      check('ceiling INSERT', insert);
      check('ceiling SELECT', select);
      const { floorInsert, floorSelect } = ceiling;
      check('Express floor INSERT', floorInsert);
      check('Express floor SELECT', floorSelect);
      rows.push(
        {
          what: 'ceiling: INSERT … COMMIT per request (bare node:http + pg)',
          rate: `${fmt(insert.rps)} req/s`,
          latency: lat(insert),
          ratio: '100%',
          target: '',
          notes: `${loadNotes(insert)}; CPU ms per request: ${insert.cpu}`,
        },
        {
          what: 'ceiling: SELECT by primary key per request',
          rate: `${fmt(select.rps)} req/s`,
          latency: lat(select),
          ratio: '100%',
          target: '',
          notes: `${loadNotes(select)}; CPU ms per request: ${select.cpu}`,
        },
        {
          what: 'Express floor: the same INSERT behind Express 5, nothing else',
          rate: `${fmt(floorInsert.rps)} req/s`,
          latency: lat(floorInsert),
          ratio: pct(floorInsert.rps, insert.rps),
          target: '',
          notes: `the most an Express route doing this INSERT reaches here; ${loadNotes(floorInsert)}; CPU ms per request: ${floorInsert.cpu}`,
        },
        {
          what: 'Express floor: the same SELECT behind Express 5, nothing else',
          rate: `${fmt(floorSelect.rps)} req/s`,
          latency: lat(floorSelect),
          ratio: pct(floorSelect.rps, select.rps),
          target: '',
          notes: `the most an Express route doing this SELECT reaches here; ${loadNotes(floorSelect)}; CPU ms per request: ${floorSelect.cpu}`,
        },
      );
    }

    if (phases.has('flow')) rows.push(await measureFlowCeiling(sys));

    if (phases.has('cashin')) {
      const satLoad = {
        kind: 'flow',
        url: sys.gatewayUrl,
        path: '/api/v1/payments/cashin',
        connections: flowConnections,
        durationS: seconds,
        prefix: 'sat',
        webhookDeadlineS: WEBHOOK_DEADLINE_S,
        reportArrivals: true,
        ...api,
      } as const;
      // Everything the warm-up started ends before the measured load: none of its work is counted there.
      await warmUp('the system', satLoad, (warm) => settle(sys, warm.prefix, warm.arrivals));
      console.log(`completed cash-ins at saturation: ${seconds} s, ${flowConnections} connections`);
      const satCpu = cpu();
      const saturated = await runLoad(satLoad);
      const f = saturated.flow!;
      const satCpuUse = cpuPerRequest(satCpu, cpu(), f.notified);
      const satSettled = await settle(sys, 'sat', f.arrivals);
      check('cash-in at saturation', saturated, satSettled);
      rows.push({
        what: 'cash-in at saturation, completed (202, then the SUCCESS webhook)',
        rate: `${fmt(f.perS)} completed/s`,
        latency: `202: ${lat(saturated)}`,
        ratio: pct(f.perS, flowPerS),
        target: '≥ 25% of flow ceiling',
        notes: `${completedNotes(f)}; answers ${JSON.stringify(saturated.answers)}; ${loadNotes(saturated)}; ${outcome(satSettled)}; CPU ms per cash-in: ${satCpuUse}`,
      });

      // BENCH_STEADY_RATE fixes the offered rate, so that two versions' latencies compare at the same load.
      const rate = process.env.BENCH_STEADY_RATE
        ? Number(process.env.BENCH_STEADY_RATE)
        : Math.max(1, Math.round(0.7 * f.perS));
      console.log(`cash-in at 70% of saturation: ${rate} req/s offered for ${seconds} s`);
      const steady = await runLoad({
        kind: 'cashin',
        url: sys.gatewayUrl,
        connections: Math.max(connections, 100),
        durationS: seconds,
        rate,
        prefix: 'steady',
        ...api,
      });
      const steadySettled = await settle(sys, 'steady');
      const hooks = steadySettled.webhookLatenciesMs;
      check('cash-in at 70%', steady, steadySettled);
      rows.push(
        {
          what: `cash-in at 70% of saturation (${fmt(rate)} req/s offered)`,
          rate: `${fmt(steady.accepted! / seconds)} req/s`,
          latency: lat(steady),
          ratio: pct(steady.accepted! / seconds, flowPerS),
          target: 'p99 < 250 ms',
          notes: `answers ${JSON.stringify(steady.answers)}; ${loadNotes(steady)}; ${outcome(steadySettled)}`,
        },
        {
          what: 'webhook: operator confirmation → merchant endpoint (at 70%)',
          rate: `${fmt(steadySettled.webhooksPerS)} deliveries/s`,
          latency: `p50 ${percentile(hooks, 50)} ms, p99 ${percentile(hooks, 99)} ms`,
          ratio: '',
          target: 'p99 < 500 ms',
          notes: `${hooks.length} deliveries timed from the simulator's decided_at`,
        },
      );
    }

    if (phases.has('status')) {
      console.log(`status reads: ${seconds} s, ${connections} connections`);
      const ids = (await sys.db.$queryRaw<{ id: string }[]>`SELECT id::text FROM transactions LIMIT 10000`).map(
        (r) => r.id,
      );
      if (ids.length === 0) throw new Error('the status phase reads the cash-ins of the cashin phase: run both');
      const checks = await checksRun(sys);
      const readLoad = {
        kind: 'status',
        url: sys.gatewayUrl,
        connections,
        durationS: seconds,
        prefix: 'read',
        ids,
        ...api,
      } as const;
      await warmUp('the status reads', readLoad);
      const readCpu = cpu();
      const reads = await runLoad(readLoad);
      const readCpuUse = cpuPerRequest(readCpu, cpu(), reads.requests);
      check('status reads', reads);
      rows.push({
        what: 'status read GET /payments/{id}',
        rate: `${fmt(reads.rps)} req/s`,
        latency: lat(reads),
        ratio: pct(reads.rps, floorSelectRps),
        target: '≥ 70% of Express floor SELECT',
        notes: `of the Express floor's SELECT; ${pct(reads.rps, selectRps)} of the bare SELECT; ${loadNotes(reads)}; CPU ms per read: ${readCpuUse}; ${checks}`,
      });
    }

    rows.push(...signatureVerification());
    if (phases.has('export')) {
      const gatewayPid = sys.services.gateway.pid!;
      rows.push(
        ...(await exportBench({
          baseUrl: sys.gatewayUrl,
          databaseUrl: sys.database.url,
          merchantId: sys.merchant.id,
          apiKey: api.apiKey,
          apiSecret: api.apiSecret,
          rows: exportRows,
          rss: () => residentBytes(gatewayPid),
          onProblem: (p) => problems.push(p),
        })),
      );
    }
  } finally {
    await sys.stop();
  }
}

/**
 * Waits until the status checks the cash-in phases scheduled have run: one per cash-in that went
 * PENDING, production's first poll a minute later, so in a full run they would fire during the status
 * reads (the expiry worker took 0.17 ms of CPU per read in the run of 2026-11-29 01:49), while the
 * Express floor the reads are compared with was measured on an idle system. What it waited, for the notes.
 */
async function checksRun(sys: ChaosSystem): Promise<string> {
  const open = async () =>
    Number(
      (
        await sys.db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM outbox WHERE topic = ${EXPIRY_TOPIC} AND completed_at IS NULL`
      )[0]!.n,
    );
  const scheduled = await open();
  console.log(`waiting for the ${scheduled} status checks the cash-in phases scheduled`);
  const started = Date.now();
  await waitFor(async () => (await open()) === 0, {
    what: "the cash-in phases' status checks run",
    timeoutMs: 240_000,
    intervalMs: 1000,
  });
  return `measured once the ${scheduled} status checks the cash-in phases scheduled had run (${((Date.now() - started) / 1000).toFixed(0)} s after them)`;
}

/**
 * The unmeasured load before a measured one (warmupSeconds; none at 0): the same job under a prefix of its
 * own that the measured one's does not match (`warm-sat-…` is not `sat-…`), checked like any load, and
 * settled first when `settled` is given (a load whose work goes on after its last answer).
 */
async function warmUp(
  what: string,
  load: LoadJob,
  settled?: (warm: { prefix: string; arrivals?: Record<string, number> }) => Promise<Settled>,
): Promise<void> {
  if (warmupSeconds <= 0) return;
  console.log(`warm-up of ${what}: ${warmupSeconds} s of the same load, not measured`);
  const prefix = `warm-${load.prefix}`;
  const r = await runLoad({ ...load, durationS: warmupSeconds, prefix });
  check(`warm-up of ${what}`, r, settled ? await settled({ prefix, arrivals: r.flow?.arrivals }) : undefined);
}

/**
 * The flow ceiling: the four-exchange cash-in built bare (flow-ceiling/service.ts and operator.ts,
 * each its own process, tables of their own in the system's database), under the completed-cash-ins
 * load the system gets, measured while the system is up and idle.
 */
async function measureFlowCeiling(sys: ChaosSystem): Promise<Row> {
  console.log(`flow ceiling: completed cash-ins, ${seconds} s, ${flowConnections} connections`);
  const secret = () => randomBytes(16).toString('hex');
  const key = { apiKey: `flow_${secret()}`, apiSecret: secret() };
  const operatorSecret = secret();
  const operator = await startServer('flow-ceiling/operator.ts', { FLOW_OPERATOR_SECRET: operatorSecret });
  try {
    const service = await startServer('flow-ceiling/service.ts', {
      DATABASE_URL: sys.database.url,
      OPERATOR_URL: operator.url,
      FLOW_API_KEY: key.apiKey,
      FLOW_API_SECRET: key.apiSecret,
      FLOW_OPERATOR_SECRET: operatorSecret,
    });
    try {
      const cpu = () => cpuSnapshot({ 'flow service': service.pid, 'flow operator': operator.pid });
      const load = {
        kind: 'flow',
        url: service.url,
        path: '/cashin',
        connections: flowConnections,
        durationS: seconds,
        prefix: 'flow',
        webhookDeadlineS: WEBHOOK_DEADLINE_S,
        ...key,
      } as const;
      await warmUp('the flow ceiling', load);
      const before = cpu();
      const r = await runLoad(load);
      const f = r.flow!;
      const use = cpuPerRequest(before, cpu(), f.notified);
      check('flow ceiling', r);
      const pool = new pg.Pool({ connectionString: sys.database.url, max: 1 });
      const tally = await flowTally(pool).finally(() => pool.end());
      const success = tally.statuses.SUCCESS ?? 0;
      if (
        success !== Object.values(tally.statuses).reduce((a, b) => a + b, 0) ||
        tally.journalRows !== 2 * success ||
        tally.events !== success
      ) {
        problems.push(`flow ceiling: its rows do not add up: ${JSON.stringify(tally)}`);
      }
      flowPerS = f.perS;
      return {
        what: 'flow ceiling: the same cash-in built bare (node:http + pg; service and operator processes)',
        rate: `${fmt(f.perS)} completed/s`,
        latency: `202: ${lat(r)}`,
        ratio: '100%',
        target: '',
        notes:
          `${completedNotes(f)}; answers ${JSON.stringify(r.answers)}; ${loadNotes(r)}; rows${warmupSeconds > 0 ? " (the warm-up's with them)" : ''} ${JSON.stringify(tally.statuses)}, ` +
          `${tally.journalRows} journal rows, ${tally.deliveredAttempts} webhooks delivered, ${tally.failedAttempts} failed; CPU ms per cash-in: ${use}`,
      };
    } finally {
      await service.stop();
    }
  } finally {
    await operator.stop();
  }
}

/**
 * The scaling curve (opt-in: it starts a system per point): the system with 1, 2 and 4 processes per
 * service (the simulator stays single), each under the completed-cash-ins load with its connections
 * spread over the gateways in turn, as a balancer in front of them would.
 */
async function scaling(): Promise<void> {
  for (const replicas of REPLICA_COUNTS) {
    console.log(
      `scaling: ${replicas} process(es) per service, completed cash-ins, ${seconds} s, ${flowConnections} connections`,
    );
    const sys = await startChaosSystem(systemOptions(`bench-x${replicas}`, replicas));
    try {
      const prefix = `x${replicas}`;
      const gateways = sys.instances.gateway.map((g) => g.spec.url);
      const before = systemCpu(sys);
      const r = await runLoad({
        kind: 'flow',
        url: gateways[0]!,
        urls: gateways,
        path: '/api/v1/payments/cashin',
        connections: flowConnections,
        durationS: seconds,
        prefix,
        webhookDeadlineS: WEBHOOK_DEADLINE_S,
        reportArrivals: true,
        apiKey: sys.merchant.apiKey,
        apiSecret: sys.merchant.apiSecret,
      });
      const f = r.flow!;
      const use = cpuPerRequest(before, systemCpu(sys), f.notified);
      const settled = await settle(sys, prefix, f.arrivals);
      check(`scaling, ${replicas} per service`, r, settled);
      rows.push({
        what: `scaling: ${replicas} process${replicas > 1 ? 'es' : ''} per service, completed cash-ins`,
        rate: `${fmt(f.perS)} completed/s`,
        latency: `202: ${lat(r)}`,
        ratio: pct(f.perS, flowPerS),
        target: '',
        notes:
          `${gateways.length > 1 ? `${gateways.length} gateways, connections spread over them in turn` : '1 gateway'}; database pool ${Math.ceil(10 / replicas)} per process; ` +
          `${completedNotes(f)}; ${loadNotes(r)}; ${outcome(settled)}; CPU ms per cash-in (each service summed over its processes): ${use}`,
      });
    } finally {
      await sys.stop();
    }
  }
}

/**
 * Growth per cash-in (opt-in: a system of its own). Expiry checks due 5 s after PENDING, so that every
 * outbox row is completed within the phase and the retention run sees what it would in production.
 */
async function growth(): Promise<void> {
  console.log(`growth: ${growthCashins} cash-ins, then the retention run`);
  const sys = await startChaosSystem({ ...systemOptions('bench-growth'), confirmationTimeoutS: 5 });
  try {
    const report = await measureGrowth(sys, growthCashins);
    problems.push(...report.problems);
    console.log(`\n${report.markdown}\n`);
  } finally {
    await sys.stop();
  }
}

/**
 * The bare server's INSERT and SELECT rates (the ceiling), then the same two behind Express 5 with
 * nothing else (the framework floor), measured while the system is up and idle.
 */
async function measureCeiling(
  sys: ChaosSystem,
): Promise<Record<'insert' | 'select' | 'floorInsert' | 'floorSelect', Measured>> {
  console.log(`ceiling and Express floor: INSERT and SELECT, ${seconds} s each, ${connections} connections`);
  const both = async (script: string) => {
    const server = await startServer(script, { DATABASE_URL: sys.database.url });
    // The server's CPU per request next to the system's: a ratio by CPU, which moves less than rates do.
    const measured = async (load: LoadJob): Promise<Measured> => {
      await warmUp(script, load);
      const before = cpuSnapshot({ server: server.pid });
      const result = await runLoad(load);
      return { ...result, cpu: cpuPerRequest(before, cpuSnapshot({ server: server.pid }), result.requests) };
    };
    try {
      const insert = await measured({
        kind: 'ceiling-insert',
        url: server.url,
        connections,
        durationS: seconds,
        prefix: script,
      });
      const ids = await sys.db.$queryRaw<{ id: string }[]>`SELECT id::text FROM bench_ceiling LIMIT 10000`;
      const select = await measured({
        kind: 'ceiling-select',
        url: server.url,
        connections,
        durationS: seconds,
        prefix: script,
        ids: ids.map((r) => r.id),
      });
      return { insert, select };
    } finally {
      await server.stop();
    }
  };
  const bare = await both('ceiling-server.ts');
  const floor = await both('framework-floor-server.ts');
  return { ...bare, floorInsert: floor.insert, floorSelect: floor.select };
}

/** The gateway's resident memory, read from /proc: it runs in its own process. */
function residentBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) * 1024;
}
