import { growthOf, type Allowance, type GrowthVerdict } from './growth-check.js';
import type { Sample } from './sampler.js';

type ServiceSeries = 'rssBytes' | 'heapUsedBytes' | 'eventLoopP99S' | 'activeHandles' | 'dbConnections';

/**
 * How much each series may grow between the early and the late part of the steady run: absolute
 * allowances for what fills once (pools, caches, JIT code), a share of the start for the rest. A leak
 * of a few hundred bytes per cash-in at half saturation passes these in minutes.
 */
const ALLOWANCES: Record<ServiceSeries, Allowance> = {
  rssBytes: { absolute: 48 * 2 ** 20, relative: 0.25 },
  heapUsedBytes: { absolute: 24 * 2 ** 20, relative: 0.25 },
  eventLoopP99S: { absolute: 0.05, relative: 1 },
  activeHandles: { absolute: 20, relative: 0.25 },
  dbConnections: { absolute: 2, relative: 0 },
};
const REDIS_ALLOWANCE: Allowance = { absolute: 16 * 2 ** 20, relative: 0.5 };

export interface SeriesRow {
  service: string;
  series: string;
  verdict: GrowthVerdict | null;
  max: number;
}

export interface SoakVerdict {
  rows: SeriesRow[];
  /** Every series that did not level off. */
  unbounded: string[];
  /** Bytes per completed cash-in of each table over the run (its growth divided by the cash-ins done). */
  tableBytesPerCashIn: Record<string, number>;
  cashIns: number;
  lines: string[];
}

const MB = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
const show = (series: string, v: number) =>
  series === 'eventLoopP99S' ? `${(v * 1000).toFixed(1)} ms` : series.endsWith('Bytes') ? MB(v) : v.toFixed(0);

export function judge(samples: Sample[]): SoakVerdict {
  const rows: SeriesRow[] = [];
  const services = Object.keys(samples[0]?.services ?? {});
  for (const service of services) {
    for (const series of Object.keys(ALLOWANCES) as ServiceSeries[]) {
      const points = samples
        .filter((s) => s.services[service])
        .map((s) => ({ atMs: s.atMs, value: s.services[service]![series] }))
        .filter((p) => Number.isFinite(p.value));
      rows.push({
        service,
        series,
        verdict: growthOf(points, ALLOWANCES[series]),
        max: Math.max(...points.map((p) => p.value)),
      });
    }
  }
  const redis = samples.map((s) => ({ atMs: s.atMs, value: s.redisUsedBytes }));
  rows.push({
    service: 'redis',
    series: 'usedMemoryBytes',
    verdict: growthOf(redis, REDIS_ALLOWANCE),
    max: Math.max(...redis.map((p) => p.value)),
  });

  const first = samples[0];
  const last = samples[samples.length - 1];
  const cashIns = (last?.cashIns ?? 0) - (first?.cashIns ?? 0);
  const tableBytesPerCashIn = Object.fromEntries(
    Object.keys(last?.tableBytes ?? {}).map((t) => [
      t,
      cashIns > 0 ? ((last!.tableBytes[t] ?? 0) - (first!.tableBytes[t] ?? 0)) / cashIns : 0,
    ]),
  );
  // The operator simulator is the operator's test double: it keeps every payment it saw in memory (the
  // invariants read those records), by design. Its series are shown, not judged.
  const unbounded = rows
    .filter((r) => r.service !== 'simulator' && r.verdict && !r.verdict.bounded)
    .map(
      (r) =>
        `${r.service} ${r.series}: ${show(r.series, r.verdict!.early)} → ${show(r.series, r.verdict!.late)} (allowed +${show(r.series, r.verdict!.allowed)})`,
    );
  const lines = [
    '| process | series | early (median) | late (median) | max | levelled off |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.service} | ${r.series} | ${r.verdict ? show(r.series, r.verdict.early) : '–'} | ${r.verdict ? show(r.series, r.verdict.late) : '–'} | ${show(r.series, r.max)} | ${r.verdict ? (r.verdict.bounded ? 'yes' : r.service === 'simulator' ? 'no (not judged: in-memory records)' : '**no**') : 'too short to tell'} |`,
    ),
  ];
  return { rows, unbounded, tableBytesPerCashIn, cashIns, lines };
}
