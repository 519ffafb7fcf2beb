import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createDb, type Db, SecretBox } from '@mm/db';
import { findOperatorAccount, loadOperatorAccount } from '@mm/db/operator-accounts';
import { DEV_MASTER_KEY } from '@mm/config';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { runCommand } from './run-command.js';
import { parseEnv } from './env.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `pnpm admin ...` as an operator runs it: a real process, stdin piped in. */
function runCli(
  args: string[],
  stdin: string,
  databaseUrl: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/admin-cli/src/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'development' },
      stdio: ['pipe', 'pipe', 'pipe'],
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
    child.stdin.end(stdin);
  });
}

describe('admin CLI: operator accounts', () => {
  let database: TestDatabase;
  let db: Db;
  const box = new SecretBox(DEV_MASTER_KEY);
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 2 });
    await runCommand(['seed:subsidiaries'], parseEnv({ DATABASE_URL: database.url }));
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });
  // Accounts set up as a live deployment's are (an Orange account on Orange's host): live, which a sandbox refuses.
  const env = () => parseEnv({ DATABASE_URL: database.url, DEPLOYMENT_MODE: 'live' });
  // An account of the simulator API is enabled in a sandbox only.
  const sandbox = () => parseEnv({ DATABASE_URL: database.url, DEPLOYMENT_MODE: 'sandbox' });
  const stdin = (text: string) => ({ readStdin: () => Promise.resolve(text) });
  const audit = (targetId: string) =>
    db.auditEntry.findMany({ where: { targetType: 'operator_account', targetId }, orderBy: { id: 'asc' } });

  it('operator:list prints every account, with --json one object per account, never a credential', async () => {
    await runCommand(
      ['operator:credentials', '--country', 'CM', '--operator', 'MTN'],
      env(),
      stdin('{"apiUser": "list-user-77", "apiKey": "list-key-secret-77"}'),
    );
    const sealed = (
      await db.operatorAccount.findUniqueOrThrow({
        where: { countryCode_operator: { countryCode: 'CM', operator: 'MTN' } },
      })
    ).credentialsSealed!;
    const text = await runCommand(['operator:list'], env());
    expect(text.split('\n')).toHaveLength(10);
    expect(text).toMatch(
      /^CI MTN {7}mtn-momo {6}disabled credentials: none base_url: - prefixes: \+22505 settings: \{\}$/m,
    );
    expect(text).toMatch(/^CM MTN .* credentials: set /m);
    const { accounts } = JSON.parse(await runCommand(['operator:list', '--json'], env()));
    expect(accounts).toHaveLength(10);
    expect(
      accounts.find((a: { country_code: string; operator: string }) => a.country_code === 'CM' && a.operator === 'MTN'),
    ).toEqual({
      country_code: 'CM',
      operator: 'MTN',
      api: 'mtn-momo',
      base_url: null,
      prefixes: expect.arrayContaining(['+23767']),
      enabled: false,
      marked_down_at: null,
      marked_down_reason: null,
      has_credentials: true,
      settings: {},
    });
    for (const out of [text, JSON.stringify(accounts)])
      for (const secret of ['list-user-77', 'list-key-secret-77', sealed]) expect(out).not.toContain(secret);
  });

  it('operator:set changes the fields given in one audited change, creates an account with --api, and refuses bad values changing nothing', async () => {
    const out = await runCommand(
      [
        'operator:set',
        '--country',
        'ci',
        '--operator',
        'orange',
        '--base-url',
        'https://api.orange.example',
        '--settings',
        '{"merchantKey":"m-1"}',
        '--prefixes',
        '+22507,+22508',
        '--json',
      ],
      env(),
    );
    expect(JSON.parse(out)).toEqual({ country_code: 'CI', operator: 'ORANGE', created: false, changed: true });
    expect(await findOperatorAccount(db, 'CI', 'ORANGE')).toMatchObject({
      baseUrl: 'https://api.orange.example',
      settings: { merchantKey: 'm-1' },
      prefixes: ['+22507', '+22508'],
    });
    expect((await audit('CI:ORANGE')).map((a) => [a.action, a.actor, a.staffId, a.before, a.after])).toEqual([
      [
        'operator_account.update',
        'admin-cli',
        null,
        { baseUrl: null, settings: {}, prefixes: ['+22507'] },
        { baseUrl: 'https://api.orange.example', settings: { merchantKey: 'm-1' }, prefixes: ['+22507', '+22508'] },
      ],
    ]);
    expect(
      await runCommand(
        ['operator:set', '--country', 'CI', '--operator', 'ORANGE', '--prefixes', '+22508 +22507'],
        env(),
      ),
    ).toBe('operator account CI ORANGE unchanged (it already was so)');

    const before = await findOperatorAccount(db, 'CI', 'ORANGE');
    await expect(
      runCommand(
        [
          'operator:set',
          '--country',
          'CI',
          '--operator',
          'ORANGE',
          '--base-url',
          'https://other.example',
          '--prefixes',
          '+22507,07',
        ],
        env(),
      ),
    ).rejects.toThrow(/^--prefixes: Not a prefix: 07\./);
    await expect(
      runCommand(['operator:set', '--country', 'CI', '--operator', 'ORANGE', '--settings', '{nope'], env()),
    ).rejects.toThrow(/--settings: The settings are not valid JSON/);
    await expect(
      runCommand(['operator:set', '--country', 'CI', '--operator', 'ORANGE', '--api', 'orange'], env()),
    ).rejects.toThrow(/--api must be one of simulator, mtn-momo, orange-webpay, orange-mp, wave/);
    await expect(
      runCommand(['operator:set', '--country', 'CI', '--operator', 'ORANGE', '--enable'], env()),
    ).rejects.toThrow(/enabled only once it has a base URL and credentials/);
    await expect(
      runCommand(['operator:set', '--country', 'CI', '--operator', 'MOOV', '--prefixes', '+22501'], env()),
    ).rejects.toThrow(/no operator account CI MOOV: give --api/);
    await expect(runCommand(['operator:set', '--country', 'CI', '--operator', 'ORANGE'], env())).rejects.toThrow(
      /nothing to set/,
    );
    expect(await findOperatorAccount(db, 'CI', 'ORANGE')).toEqual(before);
    expect(await findOperatorAccount(db, 'CI', 'MOOV')).toBeNull();
    expect(await audit('CI:ORANGE')).toHaveLength(1);

    expect(
      JSON.parse(
        await runCommand(
          [
            'operator:set',
            '--country',
            'CI',
            '--operator',
            'MOOV',
            '--api',
            'simulator',
            '--prefixes',
            '+22501',
            '--enable',
            '--json',
          ],
          sandbox(),
        ),
      ),
    ).toEqual({ country_code: 'CI', operator: 'MOOV', created: true, changed: true });
    expect(await findOperatorAccount(db, 'CI', 'MOOV')).toMatchObject({
      api: 'simulator',
      prefixes: ['+22501'],
      enabled: true,
    });
    expect((await audit('CI:MOOV')).map((a) => [a.action, a.actor, a.after])).toEqual([
      [
        'operator_account.create',
        'admin-cli',
        { api: 'simulator', baseUrl: null, settings: {}, prefixes: ['+22501'], enabled: true },
      ],
    ]);
    await expect(
      runCommand(['operator:set', '--country', 'CI', '--operator', 'FREE', '--api', 'simulator'], env()),
    ).rejects.toThrow(/Unknown operator "FREE"/);
  });

  it('operator:credentials seals the JSON object read from stdin, prints only the names, audits the names only; bad JSON changes nothing', async () => {
    const secrets = ['cred-user-3c1', 'cred-key-secret-9ab'];
    const out = await runCommand(
      ['operator:credentials', '--country', 'SN', '--operator', 'ORANGE'],
      env(),
      stdin(`{"clientId": "${secrets[0]}", "clientSecret": "${secrets[1]}"}\n`),
    );
    expect(out).toBe('credentials set for SN ORANGE: clientId, clientSecret (sealed; never shown again)');
    expect((await loadOperatorAccount(db, box, 'SN', 'ORANGE'))?.credentials).toEqual({
      clientId: secrets[0],
      clientSecret: secrets[1],
    });
    const rows = await audit('SN:ORANGE');
    expect(rows.map((a) => [a.action, a.actor, a.before, a.after])).toEqual([
      [
        'operator_account.credentials',
        'admin-cli',
        { hasCredentials: false },
        { hasCredentials: true, credentialNames: ['clientId', 'clientSecret'] },
      ],
    ]);
    for (const secret of secrets) expect(JSON.stringify(rows.map((a) => [a.before, a.after]))).not.toContain(secret);

    const sealed = (
      await db.operatorAccount.findUniqueOrThrow({
        where: { countryCode_operator: { countryCode: 'SN', operator: 'ORANGE' } },
      })
    ).credentialsSealed;
    for (const bad of ['{"clientId": "x", ', 'clientId=x', '{"clientId": 5}', '']) {
      await expect(
        runCommand(['operator:credentials', '--country', 'SN', '--operator', 'ORANGE'], env(), stdin(bad)),
      ).rejects.toThrow(/credential/);
    }
    await expect(
      runCommand(['operator:credentials', '--country', 'SN', '--operator', 'MOOV'], env(), stdin('{"a": "b"}')),
    ).rejects.toThrow(/no operator account SN MOOV/);
    await expect(
      runCommand(['operator:credentials', '--country', 'SN', '--operator', 'ORANGE'], env()),
    ).rejects.toThrow(/standard input/);
    expect(
      (
        await db.operatorAccount.findUniqueOrThrow({
          where: { countryCode_operator: { countryCode: 'SN', operator: 'ORANGE' } },
        })
      ).credentialsSealed,
    ).toBe(sealed);
    expect(await audit('SN:ORANGE')).toHaveLength(1);
  });

  it('operator:down needs a reason and operator:up clears it, each audited; an unknown account fails', async () => {
    await expect(runCommand(['operator:down', '--country', 'CI', '--operator', 'SIMULATOR'], env())).rejects.toThrow(
      /--reason is required/,
    );
    await expect(
      runCommand(['operator:down', '--country', 'CI', '--operator', 'SIMULATOR', '--reason', 'x'], env()),
    ).rejects.toThrow(/--reason: Say why/);
    expect(
      await runCommand(
        ['operator:down', '--country', 'CI', '--operator', 'SIMULATOR', '--reason', 'maintenance until 14:00'],
        env(),
      ),
    ).toBe('CI SIMULATOR marked down');
    expect(await findOperatorAccount(db, 'CI', 'SIMULATOR')).toMatchObject({
      markedDownReason: 'maintenance until 14:00',
      markedDownAt: expect.any(Date),
    });
    expect(await runCommand(['operator:up', '--country', 'CI', '--operator', 'SIMULATOR'], env())).toBe(
      'CI SIMULATOR marked up',
    );
    expect(await runCommand(['operator:up', '--country', 'CI', '--operator', 'SIMULATOR'], env())).toBe(
      'CI SIMULATOR marked up (it was not down)',
    );
    expect(await findOperatorAccount(db, 'CI', 'SIMULATOR')).toMatchObject({
      markedDownReason: null,
      markedDownAt: null,
    });
    expect((await audit('CI:SIMULATOR')).map((a) => [a.action, a.actor])).toEqual([
      ['operator_account.mark_down', 'admin-cli'],
      ['operator_account.mark_up', 'admin-cli'],
    ]);
    await expect(runCommand(['operator:up', '--country', 'TG', '--operator', 'MTN'], env())).rejects.toThrow(
      /no operator account TG MTN/,
    );
  });

  it('the real command reads the credentials from a pipe and never echoes them; refused input exits non-zero', async () => {
    const secret = 'piped-secret-5e0f';
    const ok = await runCli(
      ['operator:credentials', '--country', 'SN', '--operator', 'WAVE'],
      `{"apiKey": "${secret}"}`,
      database.url,
    );
    expect(ok).toEqual({
      code: 0,
      stdout: 'credentials set for SN WAVE: apiKey (sealed; never shown again)\n',
      stderr: '',
    });
    expect((await loadOperatorAccount(db, box, 'SN', 'WAVE'))?.credentials).toEqual({ apiKey: secret });

    const bad = await runCli(
      ['operator:credentials', '--country', 'SN', '--operator', 'WAVE'],
      `{"apiKey": ${secret}}`,
      database.url,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('not valid JSON');
    expect(bad.stdout + bad.stderr).not.toContain(secret);
  });
});
