import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markdownTable, pct, writeLatestRun, type Row } from './report.js';
import { percentile } from './percentile.js';
import { cpuPerRequest } from './cpu.js';
import { completedCashins } from './completed.js';

const row = (what: string): Row => ({
  what,
  rate: '10 req/s',
  latency: 'p50 1 ms, p99 2 ms',
  ratio: '5%',
  target: '≥ 50%',
  notes: 'a | b',
});

describe('bench report', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
  });
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
    writeFileSync(
      file,
      '# Performance\nintro\n<!-- bench:start -->\nold table\n<!-- bench:end -->\n## Profiling\nkept\n',
    );
    writeLatestRun(file, 'Latest run: first', [row('one')]);
    writeLatestRun(file, 'Latest run: second', [row('two')]);
    const doc = readFileSync(file, 'utf8');
    expect(doc.startsWith('# Performance\nintro\n<!-- bench:start -->\nLatest run: second\n\n| measure')).toBe(true);
    expect(
      doc.endsWith(
        '| two | 10 req/s | p50 1 ms, p99 2 ms | 5% | ≥ 50% | a \\| b |\n<!-- bench:end -->\n## Profiling\nkept\n',
      ),
    ).toBe(true);
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
    const one = (s: number) => new Map([[100, s]]);
    const before = new Map([
      ['gateway', one(1)],
      ['bridge', one(2)],
      ['expiry', one(5)],
    ]);
    const after = new Map([
      ['gateway', one(3)],
      ['bridge', one(6)],
      ['expiry', one(5.00001)],
    ]);
    expect(cpuPerRequest(before, after, 1000)).toBe('bridge 4.00, gateway 2.00 (total 6.00)');
  });

  it('CPU per request: each process on its own; one started since counts whole, one that ended is left out, never subtracted', () => {
    // Backend 11 closed by an idle pool during the phase (its 30 s of earlier work must not count against it), 13 opened.
    const before = new Map([
      [
        'postgres',
        new Map([
          [10, 5],
          [11, 30],
          [12, 1],
        ]),
      ],
    ]);
    const after = new Map([
      [
        'postgres',
        new Map([
          [10, 6],
          [12, 1.5],
          [13, 0.5],
        ]),
      ],
    ]);
    expect(cpuPerRequest(before, after, 1000)).toBe('postgres 2.00 (total 2.00)');
  });

  it('completed cash-ins: answered 202 and notified, per second from the start of the load to the last such webhook', () => {
    // Load started at t = 1000 ms; c-4's webhook came without a 202 (cut off by the end of the load).
    const arrivals = new Map([
      ['c-1', 1500],
      ['c-2', 3000],
      ['c-4', 9000],
    ]);
    expect(completedCashins(['c-1', 'c-2', 'c-3'], arrivals, 1000)).toEqual({
      accepted: 3,
      completed: 2,
      lost: 1,
      seconds: 2,
      perS: 1,
    });
  });

  it('completed cash-ins: an id answered twice counts once; none completed is 0 per second, not NaN', () => {
    expect(completedCashins(['c-1', 'c-1'], new Map([['c-1', 2000]]), 1000)).toEqual({
      accepted: 1,
      completed: 1,
      lost: 0,
      seconds: 1,
      perS: 1,
    });
    expect(completedCashins(['c-1'], new Map(), 1000)).toEqual({
      accepted: 1,
      completed: 0,
      lost: 1,
      seconds: 0,
      perS: 0,
    });
    expect(completedCashins([], new Map(), 1000).perS).toBe(0);
  });
});
