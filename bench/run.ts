/**
 * `pnpm bench` (issue 7): the whole system, every service its own process (the chaos suite's
 * system: its own database and Redis server, the simulator confirming at once), loaded from a
 * separate process (load.ts, autocannon) on loopback, next to the ceiling measured in the same run:
 * a bare node:http + pg server (ceiling-server.ts). Prints the table and writes it to
 * docs/performance.md. After each cash-in phase every cash-in must be SUCCESS, notified, and the
 * ledger must verify. BENCH_SECONDS (30) is the length of each load, BENCH_CONNECTIONS (50) the
 * connections of the saturating loads, BENCH_EXPORT_ROWS (1 000 000; 0 skips) the export size.
 * BENCH_CPU_PROF=<dir> starts every service with --cpu-prof into that folder (profiles on exit);
 * BENCH_PHASES (ceiling,cashin,status,export) runs only some phases, e.g. to profile one of them;
 * only a run of every phase rewrites docs/performance.md. Any error, lost cash-in or ledger problem
 * makes the run exit 1 after printing its table.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startChaosSystem, type ServiceName } from '@mm/chaos/system';
import { cpuPerRequest, cpuSnapshot } from './support/cpu.js';
import { exportBench } from './export-bench.js';
import { signatureVerification } from './signature-verification.js';
import { runLoad, startCeilingServer } from './support/node-process.js';
import { fmt, pct, writeLatestRun, type Row } from './support/report.js';
import { percentile } from './support/percentile.js';
import { settle, type Settled } from './support/settle.js';
import type { LoadResult } from './support/load-job.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const exportRows = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const phases = new Set((process.env.BENCH_PHASES ?? 'ceiling,cashin,status,export').split(','));
const DOC = fileURLToPath(new URL('../docs/performance.md', import.meta.url));

const names: ServiceName[] = ['simulator', 'gateway', 'bridge', 'expiry', 'refunds', 'dispatcher'];
const sys = await startChaosSystem({
  suite: 'bench', logLevel: process.env.BENCH_LOG_LEVEL ?? 'info', outcomeDelayMs: 0, confirmationTimeoutS: 300,
  webhookScheduleS: '1,5,30,120', webhookTimeoutMs: 5000,
  nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  env: Object.fromEntries(names.map((n) => [n, {
    // The chaos suite's short timings are for provoking faults; measure production's defaults.
    DB_POOL_SIZE: '10', OUTBOX_RELAY_INTERVAL_MS: '5000', OUTBOX_GRACE_MS: '10000', WORKER_LOCK_MS: '30000', OPERATOR_TIMEOUT_MS: '10000',
    // One merchant sends all the load: the per-merchant limiter would measure itself.
    ...(n === 'gateway' ? { CASHIN_ACK_WAIT_MS: '5000', RATE_LIMIT_PER_S: '100000', RATE_LIMIT_BURST: '100000' } : {}),
  }])),
});
const cpu = () => cpuSnapshot(Object.fromEntries(names.map((n) => [n, sys.services[n].pid])));
const rows: Row[] = [];
/** What must not happen in any benchmark: errors, lost cash-ins, a ledger that does not verify. */
const problems: string[] = [];
const check = (phase: string, r: LoadResult, s?: Settled) => {
  if (r.non2xx + r.errors + r.timeouts > 0) problems.push(`${phase}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  if (s && s.lost > 0) problems.push(`${phase}: ${s.lost} cash-ins lost (not SUCCESS, or not notified)`);
  if (s && !s.ledgerOk) problems.push(`${phase}: ledger does not verify: ${s.ledgerProblems.join('; ')}`);
};
try {
  const api = { apiKey: sys.merchant.apiKey, apiSecret: sys.merchant.apiSecret };
  const lat = (r: LoadResult) => `p50 ${r.p50} ms, p99 ${r.p99} ms`;
  const failures = (r: LoadResult) => `${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`;
  const outcome = (s: Settled) => `${s.lost} lost; ${JSON.stringify(s.statuses)}; ledger ${s.ledgerOk ? 'OK' : `WRONG: ${s.ledgerProblems.join('; ')}`}`;

  const ceiling = phases.has('ceiling') ? await measureCeiling() : null;
  // Without the ceiling phase there is nothing to divide by: the ratios read "—".
  const insertRps = ceiling?.insert.rps ?? NaN;
  const selectRps = ceiling?.select.rps ?? NaN;
  if (ceiling) {
    const { insert, select } = ceiling;
    check('ceiling INSERT', insert);
    check('ceiling SELECT', select);
    const { floorInsert, floorSelect } = ceiling;
    check('Express floor INSERT', floorInsert);
    check('Express floor SELECT', floorSelect);
    rows.push(
      { what: 'ceiling: INSERT … COMMIT per request (bare node:http + pg)', rate: `${fmt(insert.rps)} req/s`, latency: lat(insert), ratio: '100%', target: '', notes: failures(insert) },
      { what: 'ceiling: SELECT by primary key per request', rate: `${fmt(select.rps)} req/s`, latency: lat(select), ratio: '100%', target: '', notes: failures(select) },
      {
        what: 'Express floor: the same INSERT behind Express 5, nothing else', rate: `${fmt(floorInsert.rps)} req/s`, latency: lat(floorInsert),
        ratio: pct(floorInsert.rps, insert.rps), target: '', notes: `the most an Express route doing this INSERT reaches here; ${failures(floorInsert)}`,
      },
      {
        what: 'Express floor: the same SELECT behind Express 5, nothing else', rate: `${fmt(floorSelect.rps)} req/s`, latency: lat(floorSelect),
        ratio: pct(floorSelect.rps, select.rps), target: '', notes: `the most an Express route doing this SELECT reaches here; ${failures(floorSelect)}`,
      },
    );
  }

  if (phases.has('cashin')) {
    console.log(`cash-in at saturation: ${seconds} s, ${connections} connections`);
    const satCpu = cpu();
    const saturated = await runLoad({ kind: 'cashin', url: sys.gatewayUrl, connections, durationS: seconds, prefix: 'sat', ...api });
    const satSettled = await settle(sys, 'sat');
    const satCpuUse = cpuPerRequest(satCpu, cpu(), saturated.sent);
    check('cash-in at saturation', saturated, satSettled);
    rows.push({
      what: 'cash-in at saturation (202, operator acknowledged)', rate: `${fmt(saturated.accepted! / seconds)} req/s`, latency: lat(saturated),
      ratio: pct(saturated.accepted! / seconds, insertRps), target: '≥ 50% of INSERT',
      notes: `answers ${JSON.stringify(saturated.answers)}; ${failures(saturated)}; ${outcome(satSettled)}; CPU ms per cash-in: ${satCpuUse}`,
    });

    const rate = Math.max(1, Math.round(0.7 * (saturated.accepted! / seconds)));
    console.log(`cash-in at 70% of saturation: ${rate} req/s offered for ${seconds} s`);
    const steady = await runLoad({ kind: 'cashin', url: sys.gatewayUrl, connections: Math.max(connections, 100), durationS: seconds, rate, prefix: 'steady', ...api });
    const steadySettled = await settle(sys, 'steady');
    const hooks = steadySettled.webhookLatenciesMs;
    check('cash-in at 70%', steady, steadySettled);
    rows.push(
      {
        what: `cash-in at 70% of saturation (${fmt(rate)} req/s offered)`, rate: `${fmt(steady.accepted! / seconds)} req/s`, latency: lat(steady),
        ratio: pct(steady.accepted! / seconds, insertRps), target: 'p99 < 250 ms',
        notes: `answers ${JSON.stringify(steady.answers)}; ${failures(steady)}; ${outcome(steadySettled)}`,
      },
      {
        what: 'webhook: operator confirmation → merchant endpoint (at 70%)', rate: `${fmt(steadySettled.webhooksPerS)} deliveries/s`,
        latency: `p50 ${percentile(hooks, 50)} ms, p99 ${percentile(hooks, 99)} ms`, ratio: pct(steadySettled.webhooksPerS, insertRps),
        target: 'p99 < 500 ms', notes: `${hooks.length} deliveries timed from the simulator's decided_at`,
      },
    );
  }

  if (phases.has('status')) {
    console.log(`status reads: ${seconds} s, ${connections} connections`);
    const ids = (await sys.db.$queryRaw<{ id: string }[]>`SELECT id::text FROM transactions LIMIT 10000`).map((r) => r.id);
    if (ids.length === 0) throw new Error('the status phase reads the cash-ins of the cashin phase: run both');
    const readCpu = cpu();
    const reads = await runLoad({ kind: 'status', url: sys.gatewayUrl, connections, durationS: seconds, prefix: 'read', ids, ...api });
    const readCpuUse = cpuPerRequest(readCpu, cpu(), reads.requests);
    check('status reads', reads);
    rows.push({
      what: 'status read GET /payments/{id}', rate: `${fmt(reads.rps)} req/s`, latency: lat(reads), ratio: pct(reads.rps, selectRps),
      target: '≥ 60% of SELECT', notes: `${failures(reads)}; CPU ms per read: ${readCpuUse}`,
    });
  }

  rows.push(...signatureVerification());
  if (phases.has('export')) {
    const gatewayPid = sys.services.gateway.pid!;
    rows.push(...(await exportBench({
      baseUrl: sys.gatewayUrl, databaseUrl: sys.database.url, merchantId: sys.merchant.id, apiKey: api.apiKey, apiSecret: api.apiSecret,
      rows: exportRows, rss: () => residentBytes(gatewayPid), onProblem: (p) => problems.push(p),
    })));
  }
} finally {
  await sys.stop();
}

const heading = `Latest run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${seconds} s per load, ${connections} connections, ${availableParallelism()} cores, everything on one machine.`;
console.log(`\n${heading}\n`);
console.table(rows);
if (['ceiling', 'cashin', 'status', 'export'].every((p) => phases.has(p))) {
  writeLatestRun(DOC, heading, rows);
  console.log(`written to ${DOC}`);
} else {
  console.log('some phases only: docs/performance.md left as it is');
}
if (problems.length > 0) {
  console.error(`\nFAILED:\n${problems.join('\n')}`);
  process.exitCode = 1;
}

/**
 * The bare server's INSERT and SELECT rates (the ceiling), then the same two behind Express 5 with
 * nothing else (the framework floor), measured while the system is up and idle.
 */
async function measureCeiling(): Promise<Record<'insert' | 'select' | 'floorInsert' | 'floorSelect', LoadResult>> {
  console.log(`ceiling and Express floor: INSERT and SELECT, ${seconds} s each, ${connections} connections`);
  const both = async (script: string) => {
    const server = await startCeilingServer(sys.database.url, script);
    try {
      const insert = await runLoad({ kind: 'ceiling-insert', url: server.url, connections, durationS: seconds, prefix: script });
      const ids = await sys.db.$queryRaw<{ id: string }[]>`SELECT id::text FROM bench_ceiling LIMIT 10000`;
      const select = await runLoad({ kind: 'ceiling-select', url: server.url, connections, durationS: seconds, prefix: script, ids: ids.map((r) => r.id) });
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
