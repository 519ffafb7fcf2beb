import { mkdirSync, writeFileSync } from 'node:fs';
import { startChaosSystem, type ChaosSystem } from '../support/chaos-system.js';
import { Approver, runCashouts } from '../support/cashout-load.js';
import { merchantBalanceViolations } from '../support/cashout-invariants.js';
import { settle, violations } from '../support/invariants.js';
import { runLoad } from '../support/load.js';
import { LOG_DIR } from '../support/service-process.js';
import { judge } from './judge.js';
import { writeSoakSection } from './report.js';
import { Sampler, type Sample } from './sampler.js';

/**
 * `pnpm soak`: the whole system, every service its own process on a PostgreSQL cluster and a Redis
 * server of its own, under the chaos load's mix (successes, failures, expiries, refunds, cash-outs some
 * of which wait for an approver) at half of the saturation it measures first, for SOAK_MINUTES (30).
 * Every SOAK_SAMPLE_S (10) it reads each service's memory, heap, event-loop delay, handles and database
 * connections, Redis's memory and every table's size. It fails when a series does not level off
 * (judge.ts) or an invariant of the chaos suite is broken once the load stops. A run of 30 minutes or
 * more writes its figures to docs/reliability.md.
 */
const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const SAMPLE_S = Number(process.env.SOAK_SAMPLE_S ?? 10);
/** Cash-ins started per second; by default half of the completed cash-ins per second measured first. */
const RATE = process.env.SOAK_RATE ? Number(process.env.SOAK_RATE) : null;
const THRESHOLD = 20_000;
// Mostly successes; insufficient balance (02), never confirmed (06: expires), customer cancels (05),
// refunds refused by the operator (10).
const SUFFIXES = ['01', '01', '02', '01', '06', '01', '05', '01', '10', '01'];

async function main(): Promise<void> {
  const sys = await startChaosSystem({
    suite: 'soak',
    privatePostgres: true,
    confirmationTimeoutS: 8,
    logLevel: process.env.CHAOS_LOG_LEVEL ?? 'warn',
    env: {
      gateway: {
        DISBURSEMENT_ENABLED: 'true',
        CASHOUT_APPROVAL_THRESHOLD: String(THRESHOLD),
        CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: '1000000000000',
        CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: '1000000000000',
      },
    },
  });
  let failed = true;
  try {
    failed = !(await soak(sys));
  } finally {
    await sys.stop();
  }
  process.exit(failed ? 1 : 0);
}

async function soak(sys: ChaosSystem): Promise<boolean> {
  const rate = RATE ?? Math.max(1, Math.round((await saturation(sys)) / 2));
  console.log(`soak: ${MINUTES} min at ${rate} cash-ins/s, sampled every ${SAMPLE_S} s`);
  const approver = await Approver.create(sys);
  const sampler = await Sampler.start(sys);
  const samples: Sample[] = [];
  const errors: string[] = [];
  const flows: Promise<unknown>[] = [];
  const startedAt = Date.now();
  const endAt = startedAt + MINUTES * 60_000;
  const keep = (p: Promise<unknown>) =>
    flows.push(
      p.catch((err: unknown) => {
        errors.push(String(err));
      }),
    );

  for (let second = 0, nextSample = startedAt; Date.now() < endAt; second++) {
    const tick = Date.now();
    keep(
      runLoad(sys.api, {
        prefix: `soak-${second}`,
        count: rate,
        concurrency: rate,
        suffixes: SUFFIXES,
        refundEvery: 4,
      }),
    );
    // A cash-out every other second once the first cash-ins have credited the balance, one in five
    // waiting for the approver, who approves it at once.
    if (second >= 30 && second % 2 === 0) {
      keep(
        runCashouts(sys.api, {
          prefix: `soak-out-${second}`,
          count: 1,
          concurrency: 1,
          suffixes: ['33', '34', '11'],
          amount: () => (second % 10 === 0 ? THRESHOLD + 5_000 : 500),
          onAwaiting: (c) => keep(approver.approve(c.id)),
        }),
      );
    }
    if (tick >= nextSample) {
      samples.push(await sampler.sample());
      nextSample += SAMPLE_S * 1000;
      if (samples.length % 6 === 0) console.log(progress(samples, startedAt));
    }
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - tick))));
  }
  await Promise.all(flows);
  await settle(sys);
  samples.push(await sampler.sample());
  await sampler.close();

  const broken = [...errors, ...(await violations(sys)), ...(await merchantBalanceViolations(sys))];
  const verdict = judge(samples);
  const result = { minutes: MINUTES, rate, samples, verdict, broken, at: new Date().toISOString() };
  mkdirSync(LOG_DIR, { recursive: true });
  writeFileSync(`${LOG_DIR}/soak.json`, JSON.stringify(result, null, 2));
  console.log(verdict.lines.join('\n'));
  if (broken.length > 0) console.log(`invariants broken:\n${broken.slice(0, 50).join('\n')}`);
  const passed = broken.length === 0 && verdict.unbounded.length === 0;
  if (MINUTES >= 30) writeSoakSection({ minutes: MINUTES, rate, verdict, passed, brokenCount: broken.length, samples });
  console.log(
    passed
      ? 'soak: PASS'
      : `soak: FAIL (${verdict.unbounded.length} unbounded series, ${broken.length} invariant problems)`,
  );
  return passed;
}

/**
 * Completed cash-ins per second of a closed loop of merchants for 20 s: the system's saturation on this
 * machine, in the same run (the machine is shared; a figure from another day would not do).
 */
async function saturation(sys: ChaosSystem): Promise<number> {
  const started = Date.now();
  const report = await runLoad(sys.api, {
    prefix: 'saturation',
    count: Number.POSITIVE_INFINITY,
    forMs: 20_000,
    concurrency: 48,
    suffixes: ['01'],
  });
  const perS = report.transactionIds.length / ((Date.now() - started) / 1000);
  console.log(`soak: saturation ${perS.toFixed(1)} completed cash-ins/s (48 merchants in a closed loop for 20 s)`);
  return perS;
}

function progress(samples: Sample[], startedAt: number): string {
  const last = samples[samples.length - 1]!;
  const heap = Object.entries(last.services)
    .map(([n, s]) => `${n} ${(s.heapUsedBytes / 2 ** 20).toFixed(0)}M`)
    .join(' ');
  return `soak: ${((last.atMs - startedAt) / 60_000).toFixed(1)} min, ${last.cashIns} cash-ins done, redis ${(last.redisUsedBytes / 2 ** 20).toFixed(1)}M, heap ${heap}`;
}

await main();
