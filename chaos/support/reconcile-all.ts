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
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'services/admin-cli/src/main.ts', 'reconcile', '--operator', operator, '--date', day, '--json'], {
      env: { ...process.env, ...sys.adminEnv }, maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`pnpm admin reconcile --operator ${operator} --date ${day} failed: ${err.stderr ?? ''} ${err.stdout ?? ''}`);
    });
    const last = stdout.trim().split('\n').pop()!;
    out.push(JSON.parse(last) as ReconciledDay);
  }
  return out;
}
