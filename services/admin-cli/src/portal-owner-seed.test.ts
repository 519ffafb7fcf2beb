import { createDb, type Db, SecretBox } from '@mm/db';
import { findMerchantUserForLogin, merchantUserTotpBinding, useRecoveryCode } from '@mm/db/merchant-users';
import { verifyPassword } from '@mm/db/staff';
import { DEMO_MERCHANT, DEMO_PAYMENT_LINK, DEMO_PORTAL_OWNER, DEV_MASTER_KEY } from '@mm/config';
import { findPaymentLinkBySlug } from '@mm/db/payment-links';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { runCommand } from './run-command.js';
import { parseEnv } from './env.js';

describe('admin CLI: the demo portal owner', () => {
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

  it('seed creates the owner of the demo merchant once: published password, the published TOTP secret enrolled and sealed for it, recovery codes', async () => {
    const first = await runCommand(['seed'], env());
    expect(first).toContain(
      `demo portal owner ${DEMO_PORTAL_OWNER.email} (password ${DEMO_PORTAL_OWNER.password}, development TOTP secret ${DEMO_PORTAL_OWNER.totpSecret}, recovery codes ${DEMO_PORTAL_OWNER.recoveryCodes.join(' ')})`,
    );
    const owner = await findMerchantUserForLogin(db, { email: DEMO_PORTAL_OWNER.email });
    const key = await db.apiKey.findUniqueOrThrow({ where: { apiKey: DEMO_MERCHANT.apiKey } });
    expect(owner).toMatchObject({ merchantId: key.merchantId, role: 'owner', name: 'Demo Owner', disabledAt: null });
    expect(owner!.totpEnabledAt).toBeInstanceOf(Date);
    await expect(verifyPassword(DEMO_PORTAL_OWNER.password, owner!.passwordHash)).resolves.toBe(true);
    // Sealed with the sign-in's binding under the key `pnpm start` gives the portal: it opens for this user only.
    const box = new SecretBox(DEV_MASTER_KEY);
    expect(box.open(owner!.totpSecretCiphertext!, merchantUserTotpBinding(owner!.id))).toBe(
      DEMO_PORTAL_OWNER.totpSecret,
    );
    expect(() => box.open(owner!.totpSecretCiphertext!, merchantUserTotpBinding(key.id))).toThrow();
    expect(await db.merchantUserRecoveryCode.count({ where: { merchantUserId: owner!.id } })).toBe(
      DEMO_PORTAL_OWNER.recoveryCodes.length,
    );

    // Again: nothing new, and an account changed on purpose (a recovery code spent) is left as it is.
    expect(await useRecoveryCode(db, owner!.id, DEMO_PORTAL_OWNER.recoveryCodes[0], new Date())).toBe(true);
    const again = JSON.parse(await runCommand(['seed', '--json'], env()));
    expect(again.portal_owner).toEqual({
      email: DEMO_PORTAL_OWNER.email,
      password: DEMO_PORTAL_OWNER.password,
      totp_secret: DEMO_PORTAL_OWNER.totpSecret,
      recovery_codes: [...DEMO_PORTAL_OWNER.recoveryCodes],
      created: false,
    });
    expect(await db.merchantUser.count()).toBe(1);
    expect(await useRecoveryCode(db, owner!.id, DEMO_PORTAL_OWNER.recoveryCodes[0], new Date())).toBe(false);
  });

  it('merchant-user:disable shuts the demo owner with its audit row in the merchant part of the log; again is harmless; unknown fails', async () => {
    await runCommand(['seed'], env());
    const owner = (await findMerchantUserForLogin(db, { email: DEMO_PORTAL_OWNER.email }))!;
    const out = JSON.parse(
      await runCommand(
        ['merchant-user:disable', '--email', ` ${DEMO_PORTAL_OWNER.email.toUpperCase()} `, '--json'],
        env(),
      ),
    );
    expect(out).toEqual({
      merchant_user_id: owner.id,
      merchant_id: owner.merchantId,
      email: DEMO_PORTAL_OWNER.email,
      disabled: true,
      changed: true,
    });
    expect((await findMerchantUserForLogin(db, { id: owner.id }))!.disabledAt).toBeInstanceOf(Date);
    const audit = await db.auditEntry.findMany({ where: { action: 'merchant_user.disable' } });
    expect(audit).toEqual([
      expect.objectContaining({
        actor: 'admin-cli',
        staffId: null,
        targetType: 'merchant_user',
        targetId: owner.id,
        merchantId: owner.merchantId,
        merchantUserId: owner.id,
      }),
    ]);
    expect(await runCommand(['merchant-user:disable', '--email', DEMO_PORTAL_OWNER.email], env())).toBe(
      `merchant portal user ${DEMO_PORTAL_OWNER.email} disabled (it already was)`,
    );
    expect(await db.auditEntry.count({ where: { action: 'merchant_user.disable' } })).toBe(1);
    await expect(runCommand(['merchant-user:disable', '--email', 'nobody@shop.test'], env())).rejects.toThrow(
      'no merchant portal user nobody@shop.test',
    );
  });

  it('seed gives the demo merchant its published, reusable payment link once, and leaves a changed one as it is', async () => {
    const first = await runCommand(['seed'], env());
    expect(first).toContain(`demo payment link /l/${DEMO_PAYMENT_LINK.slug}`);
    const key = await db.apiKey.findUniqueOrThrow({ where: { apiKey: DEMO_MERCHANT.apiKey } });
    const link = await findPaymentLinkBySlug(db, DEMO_PAYMENT_LINK.slug, new Date());
    expect(link).toMatchObject({
      merchantId: key.merchantId,
      description: DEMO_PAYMENT_LINK.description,
      countryCode: 'CI',
      currency: 'XOF',
      amount: 5000n,
      reusable: true,
      maxPayments: null,
      status: 'ACTIVE',
    });
    await db.$executeRaw`UPDATE payment_links SET deactivated_at = now() WHERE slug = ${DEMO_PAYMENT_LINK.slug}`;
    const again = JSON.parse(await runCommand(['seed', '--json'], env()));
    expect(again.payment_link).toEqual({ slug: DEMO_PAYMENT_LINK.slug, created: false });
    expect((await findPaymentLinkBySlug(db, DEMO_PAYMENT_LINK.slug, new Date()))?.status).toBe('INACTIVE');
    expect(await db.paymentLink.count()).toBe(1);
  });
});
