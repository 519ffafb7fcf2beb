import type { AccountConfig } from '../registry.js';
import type { MtnMomoAdapterConfig } from './client.js';
import type { MtnProduct, MtnProductCredentials } from './product-client.js';

function product(c: AccountConfig, name: MtnProduct): MtnProductCredentials | null {
  const fields = {
    subscriptionKey: `${name}SubscriptionKey`,
    apiUser: `${name}ApiUser`,
    apiKey: `${name}ApiKey`,
  } as const;
  const values = {
    subscriptionKey: c.credentials[fields.subscriptionKey],
    apiUser: c.credentials[fields.apiUser],
    apiKey: c.credentials[fields.apiKey],
  };
  const missing = (Object.keys(fields) as (keyof typeof fields)[]).filter((k) => !values[k]).map((k) => fields[k]);
  if (missing.length === 3) return null;
  if (missing.length > 0) throw new Error(`operator account credentials lack "${missing.join('", "')}"`);
  return values as MtnProductCredentials;
}

/**
 * An MTN MoMo account: Collection credentials (collectionSubscriptionKey, collectionApiUser, collectionApiKey),
 * optionally Disbursement ones (disbursement*, all three or none: refunds and payouts need them), and the setting
 * targetEnvironment (`sandbox` by default; the live market otherwise, e.g. `mtnivorycoast`).
 */
export function mtnMomoConfigFromAccount(c: AccountConfig): MtnMomoAdapterConfig {
  const collection = product(c, 'collection');
  if (!collection)
    throw new Error(
      'operator account credentials lack "collectionSubscriptionKey", "collectionApiUser", "collectionApiKey"',
    );
  const targetEnvironment = c.settings.targetEnvironment ?? 'sandbox';
  if (typeof targetEnvironment !== 'string' || !/^[a-z0-9]+$/i.test(targetEnvironment)) {
    throw new Error(
      `operator account setting "targetEnvironment" must be a name such as "sandbox" or "mtnivorycoast", got ${JSON.stringify(targetEnvironment)}`,
    );
  }
  const disbursement = product(c, 'disbursement');
  return {
    baseUrl: c.baseUrl,
    collection,
    ...(disbursement ? { disbursement } : {}),
    targetEnvironment,
    timeoutMs: c.timeoutMs,
  };
}
