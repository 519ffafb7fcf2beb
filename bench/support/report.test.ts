import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markdownTable, pct, writeLatestRun, type Row } from './report.js';
import { percentile } from './percentile.js';
import { cpuPerRequest } from './cpu.js';

const row = (what: string): Row => ({ what, rate: '10 req/s', latency: 'p50 1 ms, p99 2 ms', ratio: '5%', target: '≥ 50%', notes: 'a | b' });

describe('bench report', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'bench-report-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('renders one markdown row per measure, pipes in cells escaped', () => {
    expect(markdownTable([row('cash-in')]).split('\n')).toEqual([
      '| measure | rate | latency | ratio to ceiling | target | notes |',
      '|---|---|---|---|---|---|',
      '| cash-in | 10 req/s | p50 1 ms, p99 2 ms | 5% | ≥ 50% | a \\| b |',
    ]);
  });

  it('replaces only the block between the bench markers, however often it runs', () => {
    const file = join(dir, 'performance.md');
    writeFileSync(file, '# Performance\nintro\n<!-- bench:start -->\nold table\n<!-- bench:end -->\n## Profiling\nkept\n');
    writeLatestRun(file, 'Latest run: first', [row('one')]);
    writeLatestRun(file, 'Latest run: second', [row('two')]);
    const doc = readFileSync(file, 'utf8');
    expect(doc.startsWith('# Performance\nintro\n<!-- bench:start -->\nLatest run: second\n\n| measure')).toBe(true);
    expect(doc.endsWith('| two | 10 req/s | p50 1 ms, p99 2 ms | 5% | ≥ 50% | a \\| b |\n<!-- bench:end -->\n## Profiling\nkept\n')).toBe(true);
    expect(doc).not.toContain('old table');
    expect(doc).not.toContain('| one |');
  });

  it('refuses a document without the markers rather than losing it', () => {
    const file = join(dir, 'no-markers.md');
    writeFileSync(file, '# hand-written\n');
    expect(() => writeLatestRun(file, 'h', [row('x')])).toThrow(/no <!-- bench:start -->/);
    expect(readFileSync(file, 'utf8')).toBe('# hand-written\n');
  });

  it('gives ratios as percentages, with one decimal below 10%', () => {
    expect(pct(41, 5000)).toBe('0.8%');
    expect(pct(3000, 5000)).toBe('60%');
    expect(pct(41, NaN)).toBe('—');
  });
});

describe('bench arithmetic', () => {
  it('percentile is the nearest-rank value', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('CPU per request: the difference between two snapshots, busiest first, idle processes left out, then the total', () => {
    const before = new Map([['gateway', 1], ['bridge', 2], ['expiry', 5]]);
    const after = new Map([['gateway', 3], ['bridge', 6], ['expiry', 5.00001]]);
    expect(cpuPerRequest(before, after, 1000)).toBe('bridge 4.00, gateway 2.00 (total 6.00)');
  });

});
