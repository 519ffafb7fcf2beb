import { randomBytes } from 'node:crypto';
import { DEMO_MERCHANT, DEMO_PORTAL_OWNER, DEMO_STAFF } from '@mm/config';
import { createDbTestDatabase, createTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';
import { createDb, type Db, SecretBox } from '../database/index.js';
import { assertNoDemoDataInProduction, createServiceDb } from './demo-data.js';
import { createApiKey, createMerchant, revokeApiKey } from '../merchants/index.js';
import { createMerchantUser, setMerchantUserDisabled } from '../merchant-users/index.js';
import { createStaffUser, hashPassword, setStaffDisabled } from '../staff/index.js';

describe('assertNoDemoDataInProduction', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createDbTestDatabase(2);
    ({ db } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  const refusal = (nodeEnv = 'production') =>
    assertNoDemoDataInProduction(db, nodeEnv).then(
      () => null,
      (err: Error) => err.message,
    );

  it('refuses while the demo key or any demo staff account works, names each, and lets production start once all are shut', async () => {
    expect(await refusal()).toBeNull();
    const merchant = await createMerchant(db, { name: DEMO_MERCHANT.name, webhookUrl: null });
    await createApiKey(db, new SecretBox(randomBytes(32).toString('hex')), merchant.id, {
      apiKey: DEMO_MERCHANT.apiKey,
      apiSecret: DEMO_MERCHANT.apiSecret,
    });
    const staff = [];
    for (const user of DEMO_STAFF.users)
      staff.push(await createStaffUser(db, { ...user, password: DEMO_STAFF.password }));

    const all = await refusal();
    expect(all).toMatch(
      /^refusing to start with NODE_ENV=production: this database holds demo data with published credentials/,
    );
    expect(all).toContain(
      `${DEMO_MERCHANT.apiKey} is active (revoke it: pnpm admin key:revoke --api-key ${DEMO_MERCHANT.apiKey})`,
    );
    for (const user of DEMO_STAFF.users)
      expect(all).toContain(`${user.email} is enabled (disable it: pnpm admin staff:disable --email ${user.email})`);
    // Development, tests and the demo stack are not production: nothing is checked there.
    for (const nodeEnv of ['development', 'test', undefined])
      await expect(assertNoDemoDataInProduction(db, nodeEnv)).resolves.toBeUndefined();

    // A rotation's grace period keeps the key working: still refused until it ends.
    await db.apiKey.update({
      where: { apiKey: DEMO_MERCHANT.apiKey },
      data: { revokedAt: new Date(Date.now() + 3_600_000) },
    });
    expect(await refusal()).toContain(DEMO_MERCHANT.apiKey);
    expect(await revokeApiKey(db, DEMO_MERCHANT.apiKey)).toBe(true);
    const staffOnly = await refusal();
    expect(staffOnly).not.toContain(DEMO_MERCHANT.apiKey);
    expect(staffOnly).toContain('admin@demo.local');

    for (const s of staff.slice(0, -1)) await setStaffDisabled(db, s.id, true);
    expect(await refusal()).toContain(staff.at(-1)!.email);
    expect(await refusal()).not.toContain(staff[0]!.email);
    await setStaffDisabled(db, staff.at(-1)!.id, true);
    expect(await refusal()).toBeNull();
  });

  it('refuses while the demo portal owner can sign in with its published password; its password changed or the account disabled, production starts', async () => {
    const merchant = await createMerchant(db, { name: 'Demo Shop again', webhookUrl: null });
    const owner = await createMerchantUser(db, {
      merchantId: merchant.id,
      email: DEMO_PORTAL_OWNER.email.toUpperCase(),
      name: DEMO_PORTAL_OWNER.name,
      role: 'owner',
      password: DEMO_PORTAL_OWNER.password,
    });
    expect(await refusal()).toBe(
      'refusing to start with NODE_ENV=production: this database holds demo data with published credentials: ' +
        `the demo portal owner ${DEMO_PORTAL_OWNER.email} can sign in with its published password ` +
        `(disable it: pnpm admin merchant-user:disable --email ${DEMO_PORTAL_OWNER.email})`,
    );
    for (const nodeEnv of ['development', 'test', undefined])
      await expect(assertNoDemoDataInProduction(db, nodeEnv)).resolves.toBeUndefined();

    // A password of its own: the published one no longer opens the account.
    await db.merchantUser.update({
      where: { id: owner.id },
      data: { passwordHash: await hashPassword('not-published-1') },
    });
    expect(await refusal()).toBeNull();
    await db.merchantUser.update({
      where: { id: owner.id },
      data: { passwordHash: await hashPassword(DEMO_PORTAL_OWNER.password) },
    });
    expect(await refusal()).toContain(DEMO_PORTAL_OWNER.email);
    await setMerchantUserDisabled(db, owner.id, true);
    expect(await refusal()).toBeNull();
  });

  it('createServiceDb gives the client when allowed, and closes it again when refused', async () => {
    const other = await createTestDatabase();
    try {
      const seeded = createDb({ databaseUrl: other.url, poolSize: 1 });
      await createStaffUser(seeded, { ...DEMO_STAFF.users[0], password: DEMO_STAFF.password });
      await seeded.$disconnect();
      await expect(
        createServiceDb({
          databaseUrl: other.url,
          poolSize: 1,
          nodeEnv: 'production',
          deploymentMode: 'sandbox',
          secretBox: null,
        }),
      ).rejects.toThrow(/admin@demo\.local is enabled/);
      const allowed = await createServiceDb({
        databaseUrl: other.url,
        poolSize: 1,
        nodeEnv: 'development',
        deploymentMode: 'sandbox',
        secretBox: null,
      });
      expect(await allowed.staffUser.count()).toBe(1);
      await allowed.$disconnect();
    } finally {
      await other.drop();
    }
  });
});
