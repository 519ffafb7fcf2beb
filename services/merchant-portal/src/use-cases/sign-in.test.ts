/** The portal's two-step sign-in against the real database and Redis, audited in the merchant's part of the chain. */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createDb, type Db, SecretBox } from '@mm/db';
import { createMerchant } from '@mm/db/merchants';
import {
  confirmTotpEnrolment,
  createMerchantUser,
  newRecoveryCodes,
  normalizeMerchantUserEmail,
  startTotpEnrolment,
} from '@mm/db/merchant-users';
import { verifyAuditChain } from '@mm/db/staff';
import { Counter, createMetricsRegistry } from '@mm/observability';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mm/testing';
import { countedPasswordCheck, LoginThrottle } from '@mm/web';
import { newTotpSecret, totpCode } from '../auth/totp.js';
import { checkPasswordStep, checkSecondFactorStep, type SignInDeps, totpBinding } from './sign-in.js';

const PASSWORD = 'a password long enough';
const context = { requestId: 'req-1', ip: '192.0.2.10' };

describe('portal sign-in', () => {
  let database: TestDatabase;
  let testRedis: TestRedis;
  let db: Db;
  let redis: Redis;
  let deps: SignInDeps;
  const clock = 1_800_000_000_000;
  let merchantId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    testRedis = await createTestRedis();
    db = createDb({ databaseUrl: database.url });
    redis = new Redis(testRedis.url);
    const box = new SecretBox(randomBytes(32).toString('base64'));
    const registry = createMetricsRegistry('portal-test');
    deps = {
      db,
      box,
      redis,
      redisPrefix: testRedis.prefix,
      throttle: new LoginThrottle(
        redis,
        testRedis.prefix,
        { maxFailures: 3, lockoutS: 900, maxPerAddress: 50, addressWindowS: 600 },
        'mp',
        normalizeMerchantUserEmail,
      ),
      checkPassword: countedPasswordCheck(new Counter({ name: 'checks_total', help: 'h', registers: [registry] })),
      now: () => clock,
    };
    merchantId = (await createMerchant(db, { name: 'Boutique Awa', webhookUrl: null })).id;
  });
  afterAll(async () => {
    redis.disconnect();
    await db.$disconnect();
    await testRedis.close();
    await database.drop();
  });

  async function userWithTwoFactor(email: string) {
    const user = await createMerchantUser(db, { merchantId, email, name: 'A', role: 'owner', password: PASSWORD });
    const secret = newTotpSecret();
    await startTotpEnrolment(db, user.id, deps.box.seal(secret, totpBinding(user.id)));
    const codes = newRecoveryCodes();
    await db.$transaction((tx) => confirmTotpEnrolment(tx, user.id, codes, new Date(clock)));
    return { user, secret, codes };
  }

  it('signs in with the password alone a user without two-factor, audited in its merchant’s log', async () => {
    const user = await createMerchantUser(db, {
      merchantId,
      email: 'plain@awa.test',
      name: 'P',
      role: 'viewer',
      password: PASSWORD,
    });
    const outcome = await checkPasswordStep(deps, { email: 'Plain@Awa.test', password: PASSWORD }, context);
    expect(outcome).toMatchObject({ kind: 'signed_in', user: { id: user.id } });
    const row = await db.auditEntry.findFirst({ where: { merchantUserId: user.id }, orderBy: { id: 'desc' } });
    expect(row).toMatchObject({
      action: 'portal.login',
      merchantId,
      staffId: null,
      ip: context.ip,
      after: { factor: 'password' },
    });
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it('asks for the second factor after a right password, and takes a current code once only', async () => {
    const { user, secret } = await userWithTwoFactor('totp@awa.test');
    const first = await checkPasswordStep(deps, { email: 'totp@awa.test', password: PASSWORD }, context);
    expect(first).toEqual({ kind: 'second_factor', userId: user.id });
    expect(await db.auditEntry.count({ where: { merchantUserId: user.id, action: 'portal.login' } })).toBe(0);

    const code = totpCode(secret, clock);
    expect(await checkSecondFactorStep(deps, user.id, code, context)).toMatchObject({ id: user.id });
    // Seen over a shoulder and typed again in the same window: refused.
    expect(await checkSecondFactorStep(deps, user.id, code, context)).toBeNull();
    expect(await checkSecondFactorStep(deps, user.id, '000000', context)).toBeNull();
    const actions = await db.auditEntry.findMany({
      where: { merchantUserId: user.id },
      orderBy: { id: 'asc' },
      select: { action: true },
    });
    expect(actions.map((a) => a.action)).toEqual([
      'portal.login',
      'portal.second_factor_failed',
      'portal.second_factor_failed',
    ]);
  });

  it('takes a recovery code in place of the TOTP code, once', async () => {
    const { user, codes } = await userWithTwoFactor('lost-phone@awa.test');
    expect(await checkSecondFactorStep(deps, user.id, codes[3]!, context)).toMatchObject({ id: user.id });
    expect(await checkSecondFactorStep(deps, user.id, codes[3]!, context)).toBeNull();
  });

  it('refuses a wrong password, an unknown email and a locked account with the same answer', async () => {
    await createMerchantUser(db, {
      merchantId,
      email: 'locked@awa.test',
      name: 'L',
      role: 'finance',
      password: PASSWORD,
    });
    for (let i = 0; i < 3; i++)
      expect(await checkPasswordStep(deps, { email: 'locked@awa.test', password: 'wrong' }, context)).toEqual({
        kind: 'refused',
      });
    // Locked now: even the right password is refused, unverified, with the same answer.
    expect(await checkPasswordStep(deps, { email: 'locked@awa.test', password: PASSWORD }, context)).toEqual({
      kind: 'refused',
    });
    expect(await checkPasswordStep(deps, { email: 'nobody@awa.test', password: PASSWORD }, context)).toEqual({
      kind: 'refused',
    });
    const failed = await db.auditEntry.findMany({
      where: { actor: 'locked@awa.test' },
      orderBy: { id: 'asc' },
      select: { action: true, merchantId: true },
    });
    expect(failed.map((f) => f.action)).toEqual([
      'portal.login_failed',
      'portal.login_failed',
      'portal.login_failed',
      'portal.login_locked',
    ]);
    expect(new Set(failed.map((f) => f.merchantId))).toEqual(new Set([merchantId]));
  });
});
