import { readFileSync, writeFileSync } from 'node:fs';
import { REPO_ROOT } from '../support/service-process.js';
import type { SoakVerdict } from './judge.js';
import type { Sample } from './sampler.js';

const START = '<!-- soak:start (written by pnpm soak) -->';
const END = '<!-- soak:end -->';
const FILE = `${REPO_ROOT}docs/reliability.md`;

/** Replaces the soak's section of docs/reliability.md (appended the first time) with this run's figures. */
export function writeSoakSection(o: {
  minutes: number;
  rate: number;
  verdict: SoakVerdict;
  passed: boolean;
  brokenCount: number;
  samples: Sample[];
}): void {
  const doc = readFileSync(FILE, 'utf8');
  const tables = Object.entries(o.verdict.tableBytesPerCashIn)
    .filter(([, b]) => b > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([t, b]) => `| ${t} | ${b.toFixed(0)} |`);
  const section = [
    START,
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${o.minutes} min at ${o.rate} cash-ins/s started`,
    `(half of the saturation measured at its start), ${o.verdict.cashIns} cash-ins completed, ${o.samples.length} samples;`,
    `${o.passed ? 'passed' : 'FAILED'}: ${o.verdict.unbounded.length} series not levelling off, ${o.brokenCount} invariant problems.`,
    '',
    ...o.verdict.lines,
    '',
    'Table growth per completed cash-in (bytes, whole run, before any retention pass):',
    '',
    '| table | bytes per cash-in |',
    '|---|---|',
    ...tables,
    END,
  ].join('\n');
  const next = doc.includes(START)
    ? doc.replace(new RegExp(`${escape(START)}[\\s\\S]*?${escape(END)}`), section)
    : `${doc.trimEnd()}\n\n## Soak\n\n${section}\n`;
  writeFileSync(FILE, next);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
