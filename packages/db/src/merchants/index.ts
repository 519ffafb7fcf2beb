export {
  type ApiKeySummary,
  findMerchant,
  listMerchantKeys,
  listMerchants,
  listSubsidiaries,
  lockApiKey,
  lockMerchant,
  lockSubsidiary,
  type MerchantSummary,
  type SubsidiarySummary,
} from './merchant-queries.js';
export {
  type ActiveKey,
  type ApiKeyRecord,
  createApiKey,
  createMerchant,
  findActiveKey,
  type IssuedKey,
  keyUsableAt,
  lookupApiKey,
  newestActiveSecret,
  revokeApiKey,
  rotateApiKey,
  setMerchantStatus,
  setMerchantWebhookUrl,
} from './merchants.js';
export { resealUnboundSecrets } from './reseal-secrets.js';
export {
  findActiveSubsidiary,
  listActiveSubsidiaries,
  SEED_SUBSIDIARIES,
  setSubsidiaryActive,
  upsertSubsidiary,
} from './subsidiaries.js';
