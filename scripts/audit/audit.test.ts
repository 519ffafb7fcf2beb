import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockedPackages } from './lockfile-packages.js';
import { compareVersions, findVulnerable, type OsvRecord } from './osv.js';
import { judge } from './report.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const locked = lockedPackages(readFileSync(join(ROOT, 'pnpm-lock.yaml'), 'utf8'));
const pg = locked.find((p) => p.name === 'pg')!;

const record = (
  id: string,
  name: string,
  events: Record<string, string>[],
  extra: Partial<OsvRecord> = {},
): OsvRecord => ({
  id,
  summary: `test advisory ${id}`,
  database_specific: { severity: 'HIGH' },
  affected: [{ package: { ecosystem: 'npm', name }, ranges: [{ type: 'SEMVER', events }] }],
  ...extra,
});

describe('dependency audit (scripts/audit-deps.ts)', () => {
  it('reads every package version of pnpm-lock.yaml, scoped ones included', () => {
    expect(locked.length).toBeGreaterThan(500);
    expect(pg.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(locked.find((p) => p.name === '@prisma/client')?.version).toMatch(/^\d+\./);
    expect(locked.every((p) => p.name && p.version && !p.version.includes('('))).toBe(true);
  });

  it('orders versions as semver does', () => {
    const sorted = [
      '1.0.0',
      '1.0.0-rc.1',
      '0.9.10',
      '1.0.0-alpha',
      '1.0.0-alpha.2',
      '0.10.0',
      '1.0.0-beta',
      '1.0.1',
    ].sort(compareVersions);
    expect(sorted).toEqual([
      '0.9.10',
      '0.10.0',
      '1.0.0-alpha',
      '1.0.0-alpha.2',
      '1.0.0-beta',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
    ]);
  });

  it('matches OSV ranges (introduced/fixed/last_affected) and version lists; ignores withdrawn records and other ecosystems', () => {
    const [major, minor, patch] = pg.version.split('.').map(Number) as [number, number, number];
    const next = `${major}.${minor}.${patch + 1}`;
    const records: OsvRecord[] = [
      record('HIT-fixed-later', 'pg', [{ introduced: '0' }, { fixed: next }]),
      record('MISS-fixed-at', 'pg', [{ introduced: '0' }, { fixed: pg.version }]),
      record('HIT-last-affected', 'pg', [{ introduced: `${major}.0.0` }, { last_affected: pg.version }]),
      record('MISS-introduced-later', 'pg', [{ introduced: next }]),
      record('HIT-listed', 'pg', [], {
        affected: [{ package: { ecosystem: 'npm', name: 'pg' }, versions: [pg.version] }],
      }),
      record('MISS-withdrawn', 'pg', [{ introduced: '0' }], { withdrawn: '2026-01-01T00:00:00Z' }),
      record('MISS-pypi', 'pg', [{ introduced: '0' }], {
        affected: [
          {
            package: { ecosystem: 'PyPI', name: 'pg' },
            ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }] }],
          },
        ],
      }),
    ];
    expect(
      findVulnerable(locked, records)
        .map((f) => f.id)
        .sort(),
    ).toEqual(['HIT-fixed-later', 'HIT-last-affected', 'HIT-listed']);
  });

  it('high and critical fail unless accepted with a review date not yet passed; the rest are warnings', () => {
    const findings = findVulnerable(locked, [
      record('GHSA-high', 'pg', [{ introduced: '0' }]),
      { ...record('GHSA-low', 'pg', [{ introduced: '0' }]), database_specific: { severity: 'LOW' } },
    ]);
    expect(judge(findings, [], '2026-11-25')).toMatchObject({
      failing: [{ id: 'GHSA-high' }],
      warnings: [{ id: 'GHSA-low' }],
      accepted: [],
    });
    const risk = { id: 'GHSA-high', package: 'pg', reason: 'not reachable from our code', review_by: '2026-12-31' };
    expect(judge(findings, [risk], '2026-11-25').failing).toEqual([]);
    expect(judge(findings, [risk], '2027-01-01').failing.map((f) => f.id)).toEqual(['GHSA-high']);
  });

  it('the command: exit 1 on a high advisory, 0 on a low one, 2 when no source can be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mm-audit-osv-'));
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-deps.ts', '--offline'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        timeout: 60_000,
      });
    try {
      writeFileSync(
        join(dir, 'GHSA-test-high.json'),
        JSON.stringify(record('GHSA-test-high', 'pg', [{ introduced: '0' }])),
      );
      const high = run({ AUDIT_OSV_DIR: dir });
      expect({ status: high.status, out: high.stdout }).toEqual({
        status: 1,
        out: expect.stringContaining(`FAILING  HIGH     pg@${pg.version}  GHSA-test-high`),
      });

      writeFileSync(
        join(dir, 'GHSA-test-high.json'),
        JSON.stringify({
          ...record('GHSA-test-low', 'pg', [{ introduced: '0' }]),
          database_specific: { severity: 'LOW' },
        }),
      );
      const low = run({ AUDIT_OSV_DIR: dir });
      expect({ status: low.status, out: low.stdout }).toEqual({
        status: 0,
        out: expect.stringContaining('warning  LOW'),
      });

      const none = run({});
      expect({ status: none.status, err: none.stderr }).toEqual({
        status: 2,
        err: expect.stringContaining('NOTHING CHECKED'),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
