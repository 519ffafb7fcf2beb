/** The merchant portal's users against the real database: lower-cased emails, one merchant each, single-use codes. */
import { createMerchant } from '../merchants/index.js';
import { verifyPassword } from '../staff/index.js';
import { type Db, isUniqueViolation } from '../database/index.js';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';
import {
  confirmTotpEnrolment,
  createMerchantUser,
  disableTotp,
  findMerchantUserById,
  findMerchantUserForLogin,
  listMerchantUsers,
  newRecoveryCodes,
  setTeamTwoFactorRequired,
  signOutEverywhere,
  startTotpEnrolment,
  unusedRecoveryCodeCount,
  useRecoveryCode,
} from './index.js';

describe('merchant users', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  let shop: string;
  let other: string;
  beforeAll(async () => {
    fixture = await createDbTestDatabase(4);
    ({ db } = fixture);
    shop = (await createMerchant(db, { name: 'Boutique Awa', webhookUrl: null })).id;
    other = (await createMerchant(db, { name: 'Other shop', webhookUrl: null })).id;
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('stores the email lower-cased and the password hashed, and finds the user by any spelling', async () => {
    const user = await createMerchantUser(db, {
      merchantId: shop,
      email: ' Awa@Boutique.Example ',
      name: 'Awa',
      role: 'owner',
      password: 'a long enough password',
    });
    expect(user).toMatchObject({ email: 'awa@boutique.example', role: 'owner', merchant: { name: 'Boutique Awa' } });
    expect(user).not.toHaveProperty('passwordHash');
    const found = await findMerchantUserForLogin(db, { email: 'AWA@boutique.example' });
    expect(found?.id).toBe(user.id);
    expect(await verifyPassword('a long enough password', found!.passwordHash)).toBe(true);
  });

  it('refuses an email already used, by the same merchant or another one', async () => {
    const input = { email: 'dup@example.test', name: 'D', role: 'viewer' as const, password: 'another password' };
    await createMerchantUser(db, { ...input, merchantId: shop });
    const taken = await createMerchantUser(db, { ...input, merchantId: other }).catch((err: unknown) => err);
    expect(isUniqueViolation(taken)).toBe(true);
    expect((await listMerchantUsers(db, other)).map((u) => u.email)).toEqual([]);
  });

  it('refuses a role outside the five in the database itself', async () => {
    await expect(
      db.$executeRaw`INSERT INTO merchant_users (merchant_id, email, name, role, password_hash)
        VALUES (${shop}::uuid, 'root@example.test', 'R', 'superuser', 'x')`,
    ).rejects.toThrow(/check/i);
  });

  it('spends each recovery code once, even when it is tried twice at the same moment', async () => {
    const user = await createMerchantUser(db, {
      merchantId: shop,
      email: 'codes@example.test',
      name: 'C',
      role: 'finance',
      password: 'yet another password',
    });
    await startTotpEnrolment(db, user.id, 'sealed-secret');
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    const now = new Date();
    await db.$transaction((tx) => confirmTotpEnrolment(tx, user.id, codes, now));
    expect((await findMerchantUserById(db, user.id))?.totpEnabledAt).toEqual(now);

    const tries = await Promise.all([
      useRecoveryCode(db, user.id, codes[0]!, now),
      useRecoveryCode(db, user.id, codes[0]!, now),
    ]);
    expect(tries.sort()).toEqual([false, true]);
    // Read aloud or typed in capitals without the dash, it is the same code.
    expect(await useRecoveryCode(db, user.id, codes[1]!.toUpperCase().replace('-', ' '), now)).toBe(true);
    expect(await useRecoveryCode(db, user.id, 'zzzzz-zzzzz', now)).toBe(false);
  });

  it('moves the instant before which sessions are refused', async () => {
    const user = await createMerchantUser(db, {
      merchantId: other,
      email: 'out@example.test',
      name: 'O',
      role: 'admin',
      password: 'one more password',
    });
    const later = new Date(Date.now() + 60_000);
    await signOutEverywhere(db, user.id, later);
    expect((await findMerchantUserById(db, user.id))?.sessionsValidAfter).toEqual(later);
  });

  it('turns two-factor off with its recovery codes, and counts the codes left', async () => {
    const user = await createMerchantUser(db, {
      merchantId: shop,
      email: 'off@example.test',
      name: 'F',
      role: 'developer',
      password: 'password for off',
    });
    await startTotpEnrolment(db, user.id, 'sealed');
    const codes = newRecoveryCodes();
    await db.$transaction((tx) => confirmTotpEnrolment(tx, user.id, codes, new Date()));
    await useRecoveryCode(db, user.id, codes[3]!, new Date());
    expect(await unusedRecoveryCodeCount(db, user.id)).toBe(9);
    await db.$transaction((tx) => disableTotp(tx, user.id, new Date()));
    const off = await findMerchantUserForLogin(db, { id: user.id });
    expect(off).toMatchObject({ totpSecretCiphertext: null, totpEnabledAt: null });
    expect(await unusedRecoveryCodeCount(db, user.id)).toBe(0);
    expect(await useRecoveryCode(db, user.id, codes[0]!, new Date())).toBe(false);
  });

  it("sets the team's two-factor requirement and says what it was", async () => {
    const now = new Date();
    expect(await db.$transaction((tx) => setTeamTwoFactorRequired(tx, other, true, now))).toEqual({ before: false });
    expect(await db.$transaction((tx) => setTeamTwoFactorRequired(tx, other, true, now))).toEqual({ before: true });
    expect((await db.merchant.findUniqueOrThrow({ where: { id: other } })).requireTwoFactor).toBe(true);
    expect((await db.merchant.findUniqueOrThrow({ where: { id: shop } })).requireTwoFactor).toBe(false);
  });
});
