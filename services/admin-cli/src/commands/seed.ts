import { DEMO_MERCHANT, DEMO_PAYMENT_LINK, DEMO_PORTAL_OWNER, DEMO_STAFF } from '@mm/config';
import type { Db } from '@mm/db';
import {
  confirmTotpEnrolment,
  createMerchantUser,
  findMerchantUserForLogin,
  merchantUserTotpBinding,
  startTotpEnrolment,
} from '@mm/db/merchant-users';
import { createApiKey, createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { type SecretBox } from '@mm/db';
import { createStaffUser, findStaffByEmail } from '@mm/db/staff';
import { findPaymentLinkBySlug, insertPaymentLink } from '@mm/db/payment-links';

/**
 * Reference data only, safe in production (nothing with a published credential): subsidiaries CI/SN/CM.
 * Idempotent; a subsidiary that exists is left as it is (never re-activated once deactivated on purpose).
 */
export async function seedSubsidiaries(db: Db): Promise<string[]> {
  const created: string[] = [];
  for (const s of SEED_SUBSIDIARIES) {
    const existing = await db.subsidiary.findUnique({ where: { countryCode: s.countryCode } });
    if (!existing) {
      await upsertSubsidiary(db, s);
      created.push(s.countryCode);
    }
  }
  return created;
}

/**
 * Idempotent: subsidiaries CI/SN/CM, the demo merchant with its known key (decisions 1), one demo
 * back-office account per role with the published DEMO_STAFF password, and the demo merchant's owner in
 * the merchant portal (DEMO_PORTAL_OWNER: published password, TOTP secret and recovery codes).
 */
export async function seed(db: Db, box: SecretBox, demoWebhookUrl: string, nodeEnv = 'development') {
  // The demo key, secret and staff password are published in the README: never on a production database.
  if (nodeEnv === 'production')
    throw new Error('seed creates a merchant with a published key; refused with NODE_ENV=production');
  await seedSubsidiaries(db);
  const merchant = await seedMerchant(db, box, demoWebhookUrl);
  const staff = [];
  for (const user of DEMO_STAFF.users) {
    // An existing account is left as it is (its password, role or disabled state may have been changed on purpose).
    const existing = await findStaffByEmail(db, user.email);
    if (!existing) await createStaffUser(db, { ...user, password: DEMO_STAFF.password });
    staff.push({ email: user.email, role: user.role, created: !existing });
  }
  const portalOwner = await seedPortalOwner(db, box, merchant.merchant_id);
  const paymentLink = await seedPaymentLink(db, merchant.merchant_id);
  return {
    ...merchant,
    staff,
    staff_password: DEMO_STAFF.password,
    portal_owner: portalOwner,
    payment_link: paymentLink,
  };
}

/**
 * The demo owner, two-factor already on with the published secret: the portal's sign-in asks for a code
 * at once, as it does for a merchant's real users, and an authenticator app given the secret answers it.
 * An existing account is left as it is (its password, secret or disabled state may have been changed on purpose).
 */
async function seedPortalOwner(db: Db, box: SecretBox, merchantId: string) {
  const shown = {
    email: DEMO_PORTAL_OWNER.email,
    password: DEMO_PORTAL_OWNER.password,
    totp_secret: DEMO_PORTAL_OWNER.totpSecret,
    recovery_codes: [...DEMO_PORTAL_OWNER.recoveryCodes],
  };
  if (await findMerchantUserForLogin(db, { email: DEMO_PORTAL_OWNER.email })) return { ...shown, created: false };
  await db.$transaction(async (tx) => {
    const user = await createMerchantUser(tx, {
      merchantId,
      email: DEMO_PORTAL_OWNER.email,
      name: DEMO_PORTAL_OWNER.name,
      role: DEMO_PORTAL_OWNER.role,
      password: DEMO_PORTAL_OWNER.password,
    });
    await startTotpEnrolment(tx, user.id, box.seal(DEMO_PORTAL_OWNER.totpSecret, merchantUserTotpBinding(user.id)));
    await confirmTotpEnrolment(tx, user.id, [...DEMO_PORTAL_OWNER.recoveryCodes], new Date());
  });
  return { ...shown, created: true };
}

/** The demo merchant's reusable link (DEMO_PAYMENT_LINK); an existing one is left as it is (deactivated on purpose, say). */
async function seedPaymentLink(db: Db, merchantId: string) {
  const now = new Date();
  const shown = { slug: DEMO_PAYMENT_LINK.slug };
  if (await findPaymentLinkBySlug(db, DEMO_PAYMENT_LINK.slug, now)) return { ...shown, created: false };
  await insertPaymentLink(
    db,
    {
      merchantId,
      slug: DEMO_PAYMENT_LINK.slug,
      description: DEMO_PAYMENT_LINK.description,
      countryCode: DEMO_PAYMENT_LINK.countryCode,
      currency: DEMO_PAYMENT_LINK.currency,
      amount: { kind: 'fixed', amount: DEMO_PAYMENT_LINK.amount },
      reusable: true,
      maxPayments: null,
      expiresAt: null,
      redirectUrl: null,
      metadata: null,
    },
    now,
  );
  return { ...shown, created: true };
}

async function seedMerchant(db: Db, box: SecretBox, demoWebhookUrl: string) {
  const key = await db.apiKey.findUnique({ where: { apiKey: DEMO_MERCHANT.apiKey } });
  if (key)
    return {
      merchant_id: key.merchantId,
      api_key: DEMO_MERCHANT.apiKey,
      api_secret: DEMO_MERCHANT.apiSecret,
      created: false,
    };
  const merchant = await createMerchant(db, { name: DEMO_MERCHANT.name, webhookUrl: demoWebhookUrl });
  await createApiKey(db, box, merchant.id, { apiKey: DEMO_MERCHANT.apiKey, apiSecret: DEMO_MERCHANT.apiSecret });
  return {
    merchant_id: merchant.id,
    api_key: DEMO_MERCHANT.apiKey,
    api_secret: DEMO_MERCHANT.apiSecret,
    created: true,
  };
}
