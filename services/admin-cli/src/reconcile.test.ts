import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, type Db } from '@mm/db';
import { createMerchant } from '@mm/db/merchants';
import { createCashin, transition } from '@mm/db/payments';
import type { DayReport } from '@mm/db/reconciliation';
import type { TransactionStatus } from '@mm/domain';
import { startSimulator, type RunningSimulator } from '@mm/operator-simulator';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { CommandFailure, runCommand } from './run-command.js';
import { parseEnv } from './env.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DAY = '2026-11-27';

/** `pnpm --silent admin ...` as an operator runs it: a real process. */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/admin-cli/src/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'development', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += String(d);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

describe('admin CLI: reconcile, reconcile:import, reconcile:report', () => {
  let database: TestDatabase;
  let db: Db;
  let sim: RunningSimulator;
  let dir: string;
  const refs: Record<string, string> = {};
  let settings: Record<string, string>;
  const env = () => parseEnv(settings);

  async function cashin(
    merchantId: string,
    order: string,
    amount: number,
    status: TransactionStatus,
    at: string,
  ): Promise<string> {
    const c = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (c.kind !== 'created') throw new Error('not created');
    await db.$transaction(async (tx) => {
      for (const to of ['INITIATED', 'PENDING', status] as const)
        await transition(tx, { transactionId: c.transaction.id, to, cause: 'test' });
    });
    await db.$executeRaw`UPDATE transactions SET created_at = ${new Date(at)} WHERE id = ${c.transaction.id}::uuid`;
    return c.transaction.providerReference;
  }

  const statement = async (name: string, lines: string[]) => {
    const file = path.join(dir, name);
    await writeFile(file, `${lines.join('\n')}\n`);
    return file;
  };
  const records = () => db.operatorRecord.count();

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 2 });
    dir = await mkdtemp(path.join(tmpdir(), 'mm-reconcile-'));
    sim = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      apiToken: 'sim-token',
      sandboxToken: randomBytes(8).toString('hex'),
      callbackSecret: 'sim-callback-secret',
      outcomeDelayMs: 50,
      lateConfirmDelayMs: 1000,
      hangMs: 1000,
      log: () => undefined,
    });
    settings = { DATABASE_URL: database.url, OPERATOR_BASE_URL: sim.url, OPERATOR_TIMEOUT_MS: '2000' };
    await runCommand(['seed:subsidiaries'], env());
    const { id: merchantId } = await createMerchant(db, { name: 'M', webhookUrl: null });
    refs.ok = await cashin(merchantId, 'ok', 1000, 'SUCCESS', `${DAY}T08:00:00Z`);
    refs.missing = await cashin(merchantId, 'missing', 2000, 'SUCCESS', `${DAY}T09:00:00Z`);
    refs.failed = await cashin(merchantId, 'failed', 3000, 'FAILED', `${DAY}T10:00:00Z`);
  });
  afterAll(async () => {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
    await db.$disconnect();
    await database.drop();
  });

  it('reconcile:import refuses a statement with any bad line, naming each, and writes nothing', async () => {
    const file = await statement('bad.csv', [
      'kind,reference,operator_tx_id,amount,currency,status,occurred_at',
      `COLLECTION,${refs.ok},OP-1,1000,XOF,SUCCESSFUL,${DAY}T08:00:05Z`,
      `COLLECTION,${refs.missing},OP-2,20.50,XOF,SUCCESSFUL,${DAY}T09:00:05Z`,
      `COLLECTION,${refs.failed},OP-3,3000,XOF,MAYBE,${DAY}T10:00:05Z`,
    ]);
    const failure = await runCommand(
      ['reconcile:import', '--operator', 'simulator', '--country', 'ci', '--file', file],
      env(),
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CommandFailure);
    const text = (failure as CommandFailure).output;
    expect(text).toMatch(/^statement .*bad\.csv refused, nothing imported: 2 bad line\(s\)$/m);
    expect(text).toMatch(/^ {2}line 3: amount "20\.50" is not a whole number/m);
    expect(text).toMatch(/^ {2}line 4: status "MAYBE" is not one this import knows/m);
    expect(await records()).toBe(0);
    expect(await db.reconciliationRun.count()).toBe(0);

    // The process: exit 1, the last line of --json one object naming the lines.
    const child = await runCli(
      ['reconcile:import', '--operator', 'SIMULATOR', '--country', 'CI', '--file', file, '--json'],
      settings,
    );
    expect(child.code).toBe(1);
    expect(JSON.parse(lastLine(child.stdout))).toMatchObject({ records: 0, errors: [{ line: 3 }, { line: 4 }] });
    expect(await records()).toBe(0);
  });

  it('reconcile:import keeps a good statement and reconciles each day it covers', async () => {
    const file = await statement('good.csv', [
      'kind,reference,operator_tx_id,amount,currency,status,occurred_at',
      `COLLECTION,${refs.ok},OP-1,1000,XOF,SUCCESSFUL,${DAY}T08:00:05Z`,
      `COLLECTION,${refs.failed},OP-3,3000,XOF,FAILED,${DAY}T10:00:05Z`,
      `COLLECTION,,OP-9,700,XOF,SUCCESSFUL,${DAY}T12:00:00Z`,
      `COLLECTION,,OP-10,800,XOF,SUCCESSFUL,2026-11-26T23:10:00Z`,
    ]);
    const out = await runCommand(
      ['reconcile:import', '--operator', 'SIMULATOR', '--country', 'CI', '--file', file, '--json'],
      env(),
    );
    const r = JSON.parse(lastLine(out));
    expect(r).toMatchObject({ operator: 'SIMULATOR', country_code: 'CI', records: 4, errors: [] });
    expect(
      r.days.map((d: { date: string; matched: number; open_cases: number }) => [d.date, d.matched, d.open_cases]),
    ).toEqual([
      ['2026-11-26', 0, 1],
      [DAY, 2, 2],
    ]);
    expect(await db.operatorRecord.count({ where: { source: 'STATEMENT' } })).toBe(4);
    // Who brought the operator's word, and which file exactly, recorded with it.
    expect(
      await db.auditEntry.findMany({
        where: { action: 'reconciliation.import' },
        select: { actor: true, staffId: true, targetType: true, targetId: true, after: true },
      }),
    ).toEqual([
      {
        actor: 'admin-cli',
        staffId: null,
        targetType: 'operator_account',
        targetId: 'CI:SIMULATOR',
        after: {
          file: 'good.csv',
          sha256: createHash('sha256')
            .update(await readFile(file))
            .digest('hex'),
          records: 4,
          days: ['2026-11-26', DAY],
        },
      },
    ]);
    const open = await db.reconciliationCase.findMany({ where: { state: 'OPEN' } });
    expect(Object.fromEntries(open.map((c) => [c.recordKey, [c.category, Number(c.difference)]]))).toEqual({
      [refs.missing!]: ['MISSING_AT_OPERATOR', -2000],
      'op:OP-9': ['UNKNOWN_TO_US', 700],
      'op:OP-10': ['UNKNOWN_TO_US', 800],
    });

    const text = await runCommand(
      ['reconcile:import', '--operator', 'SIMULATOR', '--country', 'CI', '--file', file],
      env(),
    );
    expect(text).toMatch(
      /^imported 4 record\(s\) of CI SIMULATOR from .*good\.csv, covering 2 day\(s\): 2026-11-26, 2026-11-27$/m,
    );
    // The same statement again: the same cases, none doubled.
    expect(await db.reconciliationCase.count()).toBe(3);
  });

  it("reconcile --operator SIMULATOR --date D --json: each enabled account's day, the last line one JSON object; exit 0 with open cases", async () => {
    const child = await runCli(['reconcile', '--operator', 'SIMULATOR', '--date', DAY, '--json'], settings);
    if (child.code !== 0) throw new Error(`exit ${child.code}: ${child.stderr}${child.stdout}`);
    const r = JSON.parse(lastLine(child.stdout));
    expect(r).toMatchObject({
      operator: 'SIMULATOR',
      date: DAY,
      country_code: null,
      matched: 2,
      open_cases: 2,
      errors: [],
    });
    expect(r.by_category.MATCHED).toEqual({ count: 2, amounts: { XOF: 1000, XAF: 0 } });
    expect(r.by_category.MISSING_AT_OPERATOR).toEqual({ count: 1, amounts: { XOF: 2000, XAF: 0 } });
    expect(r.by_category.UNKNOWN_TO_US).toEqual({ count: 1, amounts: { XOF: 700, XAF: 0 } });
    expect(
      r.countries.map((c: { country_code: string; matched: number; open_cases: number; currency: string }) => [
        c.country_code,
        c.matched,
        c.open_cases,
        c.currency,
      ]),
    ).toEqual([
      ['CI', 2, 2, 'XOF'],
      ['CM', 0, 0, 'XAF'],
      ['SN', 0, 0, 'XOF'],
    ]);
    expect(r.countries[0].sources).toContain('STATEMENT');

    const text = await runCommand(['reconcile', '--operator', 'SIMULATOR', '--date', DAY, '--country', 'CI'], env());
    expect(text).toMatch(
      /^CI SIMULATOR 2026-11-27: 2 matched, 1 missing at operator \(2000 XOF\), 1 unknown to us \(700 XOF\); 2 open case\(s\)/m,
    );
    expect(lastLine(text)).toMatch(/2 open case\(s\) wait for a person/);
    expect(
      await db.reconciliationRun.findUniqueOrThrow({
        where: {
          countryCode_operator_businessDate: { countryCode: 'CI', operator: 'SIMULATOR', businessDate: new Date(DAY) },
        },
      }),
    ).toMatchObject({ matched: 2, openCases: 2 });
  });

  it('reconcile exits 1 with a clear message when there is nothing to reconcile or a date is wrong', async () => {
    const none = await runCli(['reconcile', '--operator', 'AIRTEL', '--date', DAY, '--json'], settings);
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr).toMatch(/no enabled operator account for AIRTEL/);
    await expect(runCommand(['reconcile', '--operator', 'SIMULATOR', '--date', '2026-02-30'], env())).rejects.toThrow(
      /--date must be a day as YYYY-MM-DD/,
    );
    await expect(runCommand(['reconcile', '--operator', 'SIMULATOR', '--date', '2999-01-01'], env())).rejects.toThrow(
      /has not begun yet/,
    );
    await expect(
      runCommand(['reconcile', '--operator', 'SIMULATOR', '--date', DAY, '--country', 'TG'], env()),
    ).rejects.toThrow(/no operator account TG SIMULATOR/);
    // An account whose adapter cannot be built (no credentials): reported with the summary, exit 1 (CommandFailure).
    await db.$executeRaw`UPDATE operator_accounts SET api = 'mtn-momo', base_url = 'http://127.0.0.1:9', enabled = true WHERE country_code = 'CM' AND operator = 'MTN'`;
    try {
      const failure = await runCommand(['reconcile', '--operator', 'MTN', '--date', DAY, '--json'], env()).catch(
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(CommandFailure);
      expect(JSON.parse(lastLine((failure as CommandFailure).output))).toMatchObject({
        operator: 'MTN',
        errors: [{ country_code: 'CM', error: expect.stringMatching(/no credentials/) }],
      });
    } finally {
      await db.$executeRaw`UPDATE operator_accounts SET base_url = NULL, enabled = false WHERE country_code = 'CM' AND operator = 'MTN'`;
    }
  });

  it('reconcile:report: the day per account as JSON and as CSV, open cases listed', async () => {
    const report = JSON.parse(
      lastLine(
        await runCommand(['reconcile:report', '--date', DAY, '--operator', 'SIMULATOR', '--format', 'json'], env()),
      ),
    ) as DayReport;
    expect(report.accounts.map((a) => [a.country_code, a.operator, a.run === null, a.open_cases])).toEqual([
      ['CI', 'SIMULATOR', false, 2],
      ['CM', 'SIMULATOR', false, 0],
      ['SN', 'SIMULATOR', false, 0],
    ]);
    const ci = report.accounts[0]!;
    expect(ci).toMatchObject({
      currency: 'XOF',
      matched: 2,
      unmatched_amount: { XOF: 2700 },
      by_category: {
        MATCHED: { count: 2, amount: 1000 },
        MISSING_AT_OPERATOR: { count: 1, amount: 2000 },
        UNKNOWN_TO_US: { count: 1, amount: 700 },
      },
    });
    expect(ci.run!.sources).toContain('STATEMENT');
    expect(ci.cases.map((c) => [c.kind, c.reference, c.category, c.difference, c.currency]).sort()).toEqual(
      [
        ['CASHIN', refs.missing, 'MISSING_AT_OPERATOR', -2000, 'XOF'],
        ['CASHIN', 'op:OP-9', 'UNKNOWN_TO_US', 700, 'XOF'],
      ].sort(),
    );

    const csv = await runCommand(
      ['reconcile:report', '--date', DAY, '--operator', 'SIMULATOR', '--country', 'CI', '--format', 'csv'],
      env(),
    );
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'record,date,country_code,operator,reconciled_at,category,count,amount,currency,case_id,kind,reference,difference,transaction_id,opened_at',
    );
    const at = ci.run!.finished_at;
    expect(lines.slice(1, 7)).toEqual([
      `category,${DAY},CI,SIMULATOR,${at},MATCHED,2,1000,XOF,,,,,,`,
      `category,${DAY},CI,SIMULATOR,${at},STATUS_DIFFERS,0,0,XOF,,,,,,`,
      `category,${DAY},CI,SIMULATOR,${at},AMOUNT_DIFFERS,0,0,XOF,,,,,,`,
      `category,${DAY},CI,SIMULATOR,${at},MISSING_AT_OPERATOR,1,2000,XOF,,,,,,`,
      `category,${DAY},CI,SIMULATOR,${at},UNKNOWN_TO_US,1,700,XOF,,,,,,`,
      `category,${DAY},CI,SIMULATOR,${at},PENDING,0,0,XOF,,,,,,`,
    ]);
    const missing = ci.cases.find((c) => c.reference === refs.missing)!;
    expect(lines).toContain(
      `open_case,${DAY},CI,SIMULATOR,${at},MISSING_AT_OPERATOR,,2000,XOF,${missing.id},CASHIN,${refs.missing},-2000,${missing.transaction_id},${missing.opened_at}`,
    );
    expect(lines).toHaveLength(1 + 6 + 2);

    const text = await runCommand(['reconcile:report', '--date', DAY, '--country', 'CI'], env());
    expect(text).toMatch(/^CI SIMULATOR 2026-11-27: reconciled .* \(\d+ run\(s\), operator records: .*STATEMENT.*\)$/m);
    expect(text).toMatch(/^ {2}open cases: 2 \(unmatched 2700 XOF\)$/m);
    // Accounts that were never reconciled that day are listed as such (CI's disabled operators are not).
    expect(await runCommand(['reconcile:report', '--date', '2026-11-01', '--country', 'SN'], env())).toMatch(
      /^SN SIMULATOR 2026-11-01: NOT RECONCILED$/m,
    );
    await expect(runCommand(['reconcile:report', '--date', DAY, '--format', 'xml'], env())).rejects.toThrow(
      /--format must be text, json or csv/,
    );
  });
});
