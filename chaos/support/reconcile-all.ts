import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ChaosSystem } from './chaos-system.js';

const run = promisify(execFile);

export interface ReconciledDay {
  operator: string;
  date: string;
  matched: number;
  open_cases: number;
  by_category: Record<string, { count: number }>;
  errors: { country_code: string; error: string }[];
}

/**
 * Every enabled operator account's every day of the suite's transactions, reconciled by the operations
 * command itself (`pnpm --silent admin reconcile --json`, its last line), against what each operator (the
 * simulator, the contract mocks) says it did (docs/reconciliation.md).
 */
export async function reconcileAll(sys: ChaosSystem): Promise<ReconciledDay[]> {
  const days = await sys.db.$queryRaw<{ operator: string; day: string }[]>`
    SELECT DISTINCT operator, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM transactions ORDER BY 1, 2`;
  const out: ReconciledDay[] = [];
  for (const { operator, day } of days) {
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'services/admin-cli/src/main.ts',
        'reconcile',
        '--operator',
        operator,
        '--date',
        day,
        '--json',
      ],
      {
        env: { ...process.env, ...sys.adminEnv },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(
        `pnpm admin reconcile --operator ${operator} --date ${day} failed: ${err.stderr ?? ''} ${err.stdout ?? ''}`,
      );
    });
    const last = stdout.trim().split('\n').pop()!;
    out.push(JSON.parse(last) as ReconciledDay);
  }
  return out;
}

/**
 * What reconciling every day of the suite's data leaves for a person: one line per day with an open case or
 * an account that could not be reconciled, with its differences by category; empty when the books agree
 * with every operator's. Also what was matched, so a scenario can tell "nothing to compare" from "agrees".
 */
async function unreconciled(sys: ChaosSystem): Promise<{ problems: string[]; matched: number }> {
  const days = await reconcileAll(sys);
  const problems = days
    .filter((d) => d.open_cases > 0 || d.errors.length > 0)
    .map((d) => {
      const differences = Object.entries(d.by_category)
        .filter(([c, t]) => c !== 'MATCHED' && t.count > 0)
        .map(([c, t]) => `${c} ${t.count}`);
      return `${d.operator} ${d.date}: ${d.open_cases} open case(s) [${differences.join(', ')}]${d.errors.map((e) => ` ${e.country_code}: ${e.error}`).join('')}`;
    });
  return { problems, matched: days.reduce((n, d) => n + d.matched, 0) };
}

/**
 * The last test of a scenario file: on everything its scenarios left, the books agree with the operator's
 * own records, by the operations command itself, with nothing left for a person and something matched.
 */
export function itEndsReconciled(system: () => ChaosSystem): void {
  it("its data reconciles with the operator's records: every movement matched, no case open", async () => {
    const { problems, matched } = await unreconciled(system());
    expect(problems).toEqual([]);
    expect(matched).toBeGreaterThan(0);
  }, 120_000);
}
