import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

/**
 * The Prometheus alerting rules (infra/prometheus/alert-rules.yml), checked by Prometheus's own
 * promtool (Debian's `prometheus` package; `.ci/run` installs it): the file loads, its unit tests
 * (alert-rules.test.yml: each alert fires when it should and not before) pass, every alert has such a
 * test, and every metric an alert reads is one the services export.
 */
const run = promisify(execFile);
const DIR = path.resolve(import.meta.dirname, '../infra/prometheus');
const REPO = path.resolve(import.meta.dirname, '..');

interface RulesFile {
  groups: { rules: { alert?: string; expr: string }[] }[];
}
interface TestsFile {
  tests: { alert_rule_test?: { alertname: string }[] }[];
}

const rules = (parse(readFileSync(path.join(DIR, 'alert-rules.yml'), 'utf8')) as RulesFile).groups.flatMap(
  (g) => g.rules,
);
const alerts = rules.filter((r): r is { alert: string; expr: string } => typeof r.alert === 'string');

describe('alert rules, checked by promtool', () => {
  it('load (promtool check rules)', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', 'alert-rules.yml'], { cwd: DIR });
    expect(stdout).toContain(`SUCCESS: ${rules.length} rules found`);
  });

  it('pass their unit tests (promtool test rules)', async () => {
    const { stdout } = await run('promtool', ['test', 'rules', 'alert-rules.test.yml'], { cwd: DIR });
    expect(stdout).toContain('SUCCESS');
  });

  it('each alert has a unit test', () => {
    const tested = new Set(
      (parse(readFileSync(path.join(DIR, 'alert-rules.test.yml'), 'utf8')) as TestsFile).tests
        .flatMap((t) => t.alert_rule_test ?? [])
        .map((t) => t.alertname),
    );
    expect(alerts.length).toBeGreaterThan(0);
    expect(alerts.map((a) => a.alert).filter((name) => !tested.has(name))).toEqual([]);
  });

  it('each metric an alert reads is exported by the services', async () => {
    // A histogram's series are read by their suffix (`_count`); the metric is declared without it.
    const metrics = [
      ...new Set(
        alerts.flatMap((a) => a.expr.match(/\bmm_[a-z_]+/g) ?? []).map((m) => m.replace(/_(count|sum|bucket)$/, '')),
      ),
    ];
    expect(metrics.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const name of metrics) {
      // The name as a metric is declared (`name: 'mm_…'`), outside tests.
      const found = await run(
        'git',
        ['grep', '-l', '-e', `name: '${name}'`, '--', 'packages', 'services', ':!*.test.ts'],
        { cwd: REPO },
      ).then(
        () => true,
        () => false,
      );
      if (!found) missing.push(name);
    }
    expect(missing).toEqual([]);
  });
});
