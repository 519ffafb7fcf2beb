import type { Db } from '@mm/db';
import { createApiKey, createMerchant } from '@mm/db/merchants';
import { type SecretBox } from '@mm/db';

export async function merchantCreate(db: Db, box: SecretBox, opts: { name: string; webhookUrl: string | null }) {
  const merchant = await createMerchant(db, { name: opts.name, webhookUrl: opts.webhookUrl });
  const key = await createApiKey(db, box, merchant.id);
  return { merchant_id: merchant.id, api_key: key.apiKey, api_secret: key.apiSecret };
}
