import { readFileSync, writeFileSync } from 'node:fs';

export interface Row {
  what: string;
  rate: string;
  latency: string;
  /** The figure as a share of its ceiling. */
  ratio: string;
  target: string;
  notes: string;
}

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';
const cell = (s: string) => s.replace(/\|/g, '\\|');

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');
/** A share as a percentage: one decimal below 10 %, so that small ratios still compare across runs. */
export const pct = (part: number, whole: number) => {
  const p = (100 * part) / whole;
  // No ceiling in this run (BENCH_PHASES without it): no ratio.
  if (!Number.isFinite(p)) return '—';
  return `${p.toFixed(p < 10 ? 1 : 0)}%`;
};

export function markdownTable(rows: Row[]): string {
  return [
    '| measure | rate | latency | ratio to ceiling | target | notes |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${[r.what, r.rate, r.latency, r.ratio, r.target, r.notes].map(cell).join(' | ')} |`),
  ].join('\n');
}

/** Replaces the block between the bench markers of docs/performance.md with this run's table. */
export function writeLatestRun(file: string, heading: string, rows: Row[]): void {
  const doc = readFileSync(file, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${file} has no ${START} ... ${END} block`);
  writeFileSync(file, `${doc.slice(0, from + START.length)}\n${heading}\n\n${markdownTable(rows)}\n${doc.slice(to)}`);
}
