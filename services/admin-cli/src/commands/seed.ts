import { DEMO_MERCHANT, DEMO_STAFF } from '@mm/config';
import type { Db } from '@mm/db';
import { createApiKey, createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { type SecretBox } from '@mm/db';
import { createStaffUser, findStaffByEmail } from '@mm/db/staff';

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
 * Idempotent: subsidiaries CI/SN/CM, the demo merchant with its known key (decisions 1), and one demo
 * back-office account per role with the published DEMO_STAFF password.
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
  return { ...merchant, staff, staff_password: DEMO_STAFF.password };
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
