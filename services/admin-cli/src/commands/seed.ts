import { DEMO_MERCHANT } from '@mm/config';
import { createApiKey, createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary, type Db, type SecretBox } from '@mm/db';

/** Idempotent: subsidiaries CI/SN/CM and the demo merchant with its known key (decisions 1). */
export async function seed(db: Db, box: SecretBox, demoWebhookUrl: string, nodeEnv = 'development') {
  // The demo key and secret are published in the README: never on a production database.
  if (nodeEnv === 'production') throw new Error('seed creates a merchant with a published key; refused with NODE_ENV=production');
  for (const s of SEED_SUBSIDIARIES) {
    const existing = await db.subsidiary.findUnique({ where: { countryCode: s.countryCode } });
    // Never re-activate a subsidiary the operator has deactivated.
    if (!existing) await upsertSubsidiary(db, s);
  }
  const key = await db.apiKey.findUnique({ where: { apiKey: DEMO_MERCHANT.apiKey } });
  if (key) return { merchant_id: key.merchantId, api_key: DEMO_MERCHANT.apiKey, api_secret: DEMO_MERCHANT.apiSecret, created: false };
  const merchant = await createMerchant(db, { name: DEMO_MERCHANT.name, webhookUrl: demoWebhookUrl });
  await createApiKey(db, box, merchant.id, { apiKey: DEMO_MERCHANT.apiKey, apiSecret: DEMO_MERCHANT.apiSecret });
  return { merchant_id: merchant.id, api_key: DEMO_MERCHANT.apiKey, api_secret: DEMO_MERCHANT.apiSecret, created: true };
}
