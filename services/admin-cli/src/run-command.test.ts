import { createDb, type Db, apiKeySecretBinding, SecretBox } from '@mm/db';
import { sealUnbound } from '@mm/db/testing';
import { DEMO_MERCHANT, DEV_MASTER_KEY } from '@mm/config';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { runCommand } from './run-command.js';
import { parseEnv } from './env.js';

describe('admin CLI', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 2 });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });
  const env = () => parseEnv({ DATABASE_URL: database.url });

  it('merchant:create --json prints merchant_id, api_key and api_secret on its last line, the secret stored encrypted', async () => {
    const out = await runCommand(
      ['merchant:create', '--name', 'Shop', '--webhook-url', 'https://shop.example/hooks', '--json'],
      env(),
    );
    const parsed = JSON.parse(out.split('\n').at(-1)!);
    expect(parsed).toEqual({
      merchant_id: expect.any(String),
      api_key: expect.stringMatching(/^pk_/),
      api_secret: expect.stringMatching(/^sk_/),
    });
    const key = await db.apiKey.findUniqueOrThrow({ where: { apiKey: parsed.api_key } });
    expect(key.secretCiphertext).not.toContain(parsed.api_secret);
    expect((await db.merchant.findUniqueOrThrow({ where: { id: parsed.merchant_id } })).webhookUrl).toBe(
      'https://shop.example/hooks',
    );
  });

  it('migrate binds API secrets sealed before row bindings to their rows (the services refuse unbound ones)', async () => {
    const { merchant_id } = JSON.parse(await runCommand(['merchant:create', '--name', 'Older', '--json'], env()));
    const apiKey = 'pk_' + 'c'.repeat(32);
    await db.apiKey.create({
      data: { merchantId: merchant_id, apiKey, secretCiphertext: sealUnbound(DEV_MASTER_KEY, 'sk_older') },
    });
    expect(await runCommand(['migrate'], env())).toMatch(
      /^applied 0 migration\(s\)\nre-sealed 1 API secret\(s\), bound to their rows$/,
    );
    const row = await db.apiKey.findUniqueOrThrow({ where: { apiKey } });
    expect(new SecretBox(DEV_MASTER_KEY).open(row.secretCiphertext, apiKeySecretBinding(row))).toBe('sk_older');
    expect(await runCommand(['migrate'], env())).toBe('applied 0 migration(s)');
  });

  it('seed:subsidiaries is the production seed: CI, SN, CM under NODE_ENV=production, no merchant, no staff', async () => {
    const other = await createTestDatabase();
    const otherDb = createDb({ databaseUrl: other.url, poolSize: 1 });
    try {
      const production = parseEnv({
        DATABASE_URL: other.url,
        NODE_ENV: 'production',
        DEPLOYMENT_MODE: 'live',
        MASTER_KEY: 'ab'.repeat(32),
      });
      expect(JSON.parse(await runCommand(['seed:subsidiaries', '--json'], production))).toEqual({
        created: ['CI', 'SN', 'CM'],
      });
      expect(await runCommand(['seed:subsidiaries'], production)).toBe('subsidiaries already there');
      expect(
        (await otherDb.subsidiary.findMany({ where: { active: true }, orderBy: { countryCode: 'asc' } })).map(
          (s) => s.countryCode,
        ),
      ).toEqual(['CI', 'CM', 'SN']);
      expect([await otherDb.merchant.count(), await otherDb.apiKey.count(), await otherDb.staffUser.count()]).toEqual([
        0, 0, 0,
      ]);
    } finally {
      await otherDb.$disconnect();
      await other.drop();
    }
  });

  it('seed is idempotent: subsidiaries CI, SN, CM and one demo merchant with the known key', async () => {
    await runCommand(['seed'], env());
    await runCommand(['seed'], env());
    expect(
      (await db.subsidiary.findMany({ where: { active: true }, orderBy: { countryCode: 'asc' } })).map(
        (s) => s.countryCode,
      ),
    ).toEqual(['CI', 'CM', 'SN']);
    expect(await db.apiKey.count({ where: { apiKey: DEMO_MERCHANT.apiKey } })).toBe(1);
  });

  it('seed refuses to run with NODE_ENV=production (the demo key is public)', async () => {
    await expect(
      runCommand(
        ['seed'],
        parseEnv({
          DATABASE_URL: database.url,
          NODE_ENV: 'production',
          DEPLOYMENT_MODE: 'live',
          MASTER_KEY: 'ab'.repeat(32),
        }),
      ),
    ).rejects.toThrow(/NODE_ENV=production/);
  });

  it('key:revoke revokes, subsidiary:activate adds a franc-zone country, unknown commands fail', async () => {
    const { api_key } = JSON.parse(await runCommand(['merchant:create', '--name', 'Other', '--json'], env()));
    await runCommand(['key:revoke', '--api-key', api_key], env());
    expect((await db.apiKey.findUniqueOrThrow({ where: { apiKey: api_key } })).revokedAt).toBeInstanceOf(Date);
    await runCommand(['subsidiary:activate', '--country', 'TG', '--name', 'Togo'], env());
    expect(await db.subsidiary.findUniqueOrThrow({ where: { countryCode: 'TG' } })).toMatchObject({
      currency: 'XOF',
      active: true,
    });
    await expect(runCommand(['subsidiary:activate', '--country', 'FR'], env())).rejects.toThrow(/XOF or XAF/);
    await expect(runCommand(['nope'], env())).rejects.toThrow(/unknown command/);
  });
});
