/**
 * `pnpm audit:deps`: the dependencies of pnpm-lock.yaml against published security advisories.
 *
 * Sources, in order:
 *   1. the npm registry's advisory endpoint, through `pnpm audit` (network);
 *   2. with `--offline`, or when the registry does not answer: an OSV database on disk, AUDIT_OSV_DIR (the
 *      npm export of https://osv.dev, `all.zip` unzipped: one JSON record per advisory), fetched by
 *      whoever runs the audit where it can be reached (scripts/audit/README.md).
 * Exit 0: nothing high or critical that is not accepted (scripts/audit/accepted-risks.json, each with a
 * reason and a review date); 1: such findings; 2: no advisory source could be read (nothing was checked).
 * Not part of `pnpm test`: it needs the network or a database fetched by hand, and advisories change
 * without our code changing, which would fail unrelated CI runs.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockedPackages } from './audit/lockfile-packages.js';
import { findVulnerable, type Finding, type OsvRecord } from './audit/osv.js';
import { formatFinding, judge, type AcceptedRisk } from './audit/report.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const offline = process.argv.includes('--offline');

/** `pnpm audit --json`, as findings; null when the registry gives no advisory answer. */
function registryFindings(): { findings: Finding[] } | { unavailable: string } {
  const run = spawnSync('pnpm', ['audit', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 1 << 26,
  });
  let body: {
    advisories?: Record<
      string,
      {
        module_name: string;
        severity: string;
        title: string;
        github_advisory_id?: string;
        cves?: string[];
        findings: { version: string }[];
      }
    >;
  };
  try {
    body = JSON.parse(run.stdout);
  } catch {
    return { unavailable: (run.stderr || run.stdout || String(run.error)).trim().split('\n')[0]!.slice(0, 400) };
  }
  if (!body.advisories) return { unavailable: JSON.stringify(body).slice(0, 400) };
  return {
    findings: Object.entries(body.advisories).flatMap(([id, a]) =>
      a.findings.map((f) => ({
        package: { name: a.module_name, version: f.version },
        id: a.github_advisory_id ?? id,
        aliases: a.cves ?? [],
        severity: a.severity.toUpperCase(),
        summary: a.title,
      })),
    ),
  };
}

function* osvRecords(dir: string): Generator<OsvRecord> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* osvRecords(path);
    else if (entry.endsWith('.json')) yield JSON.parse(readFileSync(path, 'utf8')) as OsvRecord;
  }
}

function offlineFindings(): { findings: Finding[]; source: string } | null {
  const dir = process.env.AUDIT_OSV_DIR;
  if (!dir) return null;
  const packages = lockedPackages(readFileSync(join(ROOT, 'pnpm-lock.yaml'), 'utf8'));
  return {
    findings: findVulnerable(packages, osvRecords(dir)),
    source: `OSV records in ${dir} (${packages.length} locked packages)`,
  };
}

let result: { findings: Finding[]; source: string } | null = null;
if (!offline) {
  const registry = registryFindings();
  if ('findings' in registry) result = { findings: registry.findings, source: 'the npm registry (pnpm audit)' };
  else console.error(`audit:deps: the registry's advisory endpoint gave no answer: ${registry.unavailable}`);
}
result ??= offlineFindings();
if (!result) {
  console.error(
    'audit:deps: NOTHING CHECKED: no advisory source. Set AUDIT_OSV_DIR to an unzipped OSV npm export (scripts/audit/README.md).',
  );
  process.exit(2);
}

const accepted = JSON.parse(readFileSync(join(ROOT, 'scripts/audit/accepted-risks.json'), 'utf8')) as AcceptedRisk[];
const verdict = judge(result.findings, accepted, new Date().toISOString().slice(0, 10));
console.log(`audit:deps: ${result.findings.length} finding(s) from ${result.source}`);
for (const { finding, risk } of verdict.accepted)
  console.log(`accepted ${formatFinding(finding)}\n         reason: ${risk.reason} (review by ${risk.review_by})`);
for (const f of verdict.warnings) console.log(`warning  ${formatFinding(f)}`);
for (const f of verdict.failing) console.log(`FAILING  ${formatFinding(f)}`);
process.exit(verdict.failing.length > 0 ? 1 : 0);
