import { createDb, type Db } from '@mm/db';
import { findOperatorAccount } from '@mm/db/operator-accounts';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { runCommand } from './run-command.js';
import { parseEnv } from './env.js';

/**
 * DEPLOYMENT_MODE at the admin CLI (the back-office's /operators goes through the same changeOperatorAccount):
 * what a mode forbids cannot be saved, and `migrate` in a live deployment disables the simulator accounts its
 * migrations seed. The services' own refusal to start: e2e/deployment-mode.test.ts.
 */
describe('admin CLI: the deployment mode', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 2 });
    await runCommand(['seed:subsidiaries'], parseEnv({ DATABASE_URL: database.url }));
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });
  const env = (mode: 'sandbox' | 'live') => parseEnv({ DATABASE_URL: database.url, DEPLOYMENT_MODE: mode });
  const stdin = (text: string) => ({ readStdin: () => Promise.resolve(text) });
  const audits = () => db.auditEntry.count({ where: { targetType: 'operator_account' } });
  const account = (country: string, operator: string) => findOperatorAccount(db, country, operator);

  it("sandbox: an account set up for its operator's live system cannot point at the operator; at a mock inside the deployment it can", async () => {
    const before = { row: await account('CM', 'MTN'), audits: await audits() };
    await expect(
      runCommand(
        [
          'operator:set',
          '--country',
          'CM',
          '--operator',
          'MTN',
          '--base-url',
          'https://proxy.momoapi.mtn.com',
          '--settings',
          '{"targetEnvironment":"mtncameroon"}',
        ],
        env('sandbox'),
      ),
    ).rejects.toThrow(
      /Refused in a sandbox deployment: the account CM MTN is set up for its operator's live system \(MTN's live target environment "mtncameroon"\)/,
    );
    expect({ row: await account('CM', 'MTN'), audits: await audits() }).toEqual(before);

    await runCommand(
      [
        'operator:set',
        '--country',
        'CM',
        '--operator',
        'MTN',
        '--base-url',
        'http://127.0.0.1:3012',
        '--settings',
        '{"targetEnvironment":"mtncameroon"}',
      ],
      env('sandbox'),
    );
    expect((await account('CM', 'MTN'))?.baseUrl).toBe('http://127.0.0.1:3012');
    // Moved to MTN's own host afterwards: refused, the mock's address kept.
    await expect(
      runCommand(
        ['operator:set', '--country', 'CM', '--operator', 'MTN', '--base-url', 'https://proxy.momoapi.mtn.com'],
        env('sandbox'),
      ),
    ).rejects.toThrow(/sandbox/);
    expect((await account('CM', 'MTN'))?.baseUrl).toBe('http://127.0.0.1:3012');
  });

  it("sandbox: a Wave production key is refused for an account on Wave's host, whatever else it holds", async () => {
    await runCommand(
      ['operator:set', '--country', 'SN', '--operator', 'WAVE', '--base-url', 'https://api.wave.com'],
      env('sandbox'),
    );
    const before = await audits();
    await expect(
      runCommand(
        ['operator:credentials', '--country', 'SN', '--operator', 'WAVE'],
        env('sandbox'),
        stdin('{"apiKey":"wave_sn_prod_AbCdEf","webhookSecret":"s"}'),
      ),
    ).rejects.toThrow(/a Wave production API key/);
    expect({ audits: await audits(), credentials: (await account('SN', 'WAVE'))?.hasCredentials }).toEqual({
      audits: before,
      credentials: false,
    });
    // Live, the same key is what the account is for.
    await runCommand(
      ['operator:credentials', '--country', 'SN', '--operator', 'WAVE'],
      env('live'),
      stdin('{"apiKey":"wave_sn_prod_AbCdEf","webhookSecret":"s"}'),
    );
    expect((await account('SN', 'WAVE'))?.hasCredentials).toBe(true);
  });

  it('live: `migrate` disables every enabled simulator account, audited; enabling one again is refused', async () => {
    expect((await account('CI', 'SIMULATOR'))?.enabled).toBe(true);
    const text = await runCommand(['migrate'], env('live'));
    expect(text).toMatch(
      /DEPLOYMENT_MODE=live: disabled the simulator accounts CI SIMULATOR, CM SIMULATOR, SN SIMULATOR/,
    );
    for (const c of ['CI', 'SN', 'CM']) expect((await account(c, 'SIMULATOR'))?.enabled).toBe(false);
    const disabled = await db.auditEntry.findMany({
      where: { action: 'operator_account.disable', actor: 'admin-cli' },
      select: { targetId: true },
    });
    expect(disabled.map((a) => a.targetId).sort()).toEqual(['CI:SIMULATOR', 'CM:SIMULATOR', 'SN:SIMULATOR']);
    // Run again: nothing left to disable.
    expect(await runCommand(['migrate'], env('live'))).not.toMatch(/disabled the simulator/);

    await expect(
      runCommand(['operator:set', '--country', 'CI', '--operator', 'SIMULATOR', '--enable'], env('live')),
    ).rejects.toThrow(/Refused in a live deployment: the simulator account CI SIMULATOR is enabled/);
    expect((await account('CI', 'SIMULATOR'))?.enabled).toBe(false);
    // A sandbox enables it.
    await runCommand(['operator:set', '--country', 'CI', '--operator', 'SIMULATOR', '--enable'], env('sandbox'));
    expect((await account('CI', 'SIMULATOR'))?.enabled).toBe(true);
  });

  it('DEPLOYMENT_MODE is required with NODE_ENV=production, and only sandbox or live', () => {
    expect(() => parseEnv({ DATABASE_URL: database.url, NODE_ENV: 'production', MASTER_KEY: 'x'.repeat(64) })).toThrow(
      /DEPLOYMENT_MODE.*is required with NODE_ENV=production/,
    );
    expect(() => parseEnv({ DATABASE_URL: database.url, DEPLOYMENT_MODE: 'production' })).toThrow(/DEPLOYMENT_MODE/);
    expect(parseEnv({ DATABASE_URL: database.url }).DEPLOYMENT_MODE).toBe('sandbox');
  });
});
