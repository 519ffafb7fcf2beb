import type { LockedPackage } from './lockfile-packages.js';

/** The part of an OSV record (https://ossf.github.io/osv-schema/) the check reads. */
export interface OsvRecord {
  id: string;
  aliases?: string[];
  summary?: string;
  withdrawn?: string;
  database_specific?: { severity?: string };
  affected?: {
    package?: { ecosystem?: string; name?: string };
    ranges?: { type: string; events: { introduced?: string; fixed?: string; last_affected?: string }[] }[];
    versions?: string[];
  }[];
}

export interface Finding {
  package: LockedPackage;
  id: string;
  aliases: string[];
  severity: string;
  summary: string;
}

/** Semver order, pre-releases before their release (1.0.0-rc.1 < 1.0.0); build metadata ignored. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('+')[0]!.split(/-(.*)/s);
    return { core: core.split('.').map((n) => Number(n) || 0), pre: pre === undefined ? [] : pre.split('.') };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return (x.core[i] ?? 0) - (y.core[i] ?? 0);
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const [p, q] = [x.pre[i], y.pre[i]];
    if (p === undefined || q === undefined) return p === undefined ? -1 : 1;
    if (p === q) continue;
    const [np, nq] = [/^\d+$/.test(p), /^\d+$/.test(q)];
    if (np && nq) return Number(p) - Number(q);
    if (np !== nq) return np ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** Whether one OSV `affected` entry covers this npm version: listed, or inside one of its SEMVER ranges. */
function covers(affected: NonNullable<OsvRecord['affected']>[number], version: string): boolean {
  if (affected.versions?.includes(version)) return true;
  for (const range of affected.ranges ?? []) {
    if (range.type !== 'SEMVER') continue;
    // Events are ordered: each `introduced` opens an interval, the next `fixed` / `last_affected` closes it.
    let open: string | null = null;
    for (const e of range.events) {
      if (e.introduced !== undefined) open = e.introduced;
      else if (open !== null && e.fixed !== undefined) {
        if ((open === '0' || compareVersions(version, open) >= 0) && compareVersions(version, e.fixed) < 0) return true;
        open = null;
      } else if (open !== null && e.last_affected !== undefined) {
        if ((open === '0' || compareVersions(version, open) >= 0) && compareVersions(version, e.last_affected) <= 0)
          return true;
        open = null;
      }
    }
    if (open !== null && (open === '0' || compareVersions(version, open) >= 0)) return true;
  }
  return false;
}

/** The advisories (OSV records, npm ecosystem, not withdrawn) that affect the locked packages. */
export function findVulnerable(packages: LockedPackage[], records: Iterable<OsvRecord>): Finding[] {
  const byName = new Map<string, LockedPackage[]>();
  for (const p of packages) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  const findings: Finding[] = [];
  for (const record of records) {
    if (record.withdrawn) continue;
    for (const affected of record.affected ?? []) {
      if (affected.package?.ecosystem !== 'npm' || !affected.package.name) continue;
      for (const p of byName.get(affected.package.name) ?? []) {
        if (!covers(affected, p.version)) continue;
        findings.push({
          package: p,
          id: record.id,
          aliases: record.aliases ?? [],
          severity: (record.database_specific?.severity ?? 'UNKNOWN').toUpperCase(),
          summary: record.summary ?? '',
        });
      }
    }
  }
  return findings;
}
