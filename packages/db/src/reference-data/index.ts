export { createMerchant, createApiKey, revokeApiKey, rotateApiKey, setMerchantStatus, setMerchantWebhookUrl, findActiveKey, lookupApiKey, keyUsableAt, newestActiveSecret, type IssuedKey, type ActiveKey, type ApiKeyRecord } from '../merchants.js';
export { listMerchants, findMerchant, listMerchantKeys, lockMerchant, lockApiKey, listSubsidiaries, lockSubsidiary, type MerchantSummary, type ApiKeySummary, type SubsidiarySummary } from '../merchant-queries.js';
export { upsertSubsidiary, setSubsidiaryActive, findActiveSubsidiary, SEED_SUBSIDIARIES, type SubsidiaryInput } from '../subsidiaries.js';
export { SecretBox, apiKeySecretBinding } from '../secret-box.js';
export { resealUnboundSecrets } from '../reseal-secrets.js';
export { listenForReferenceChanges, REFERENCE_CHANGES_CHANNEL, type ReferenceChangeFeed, type ReferenceChangeOptions } from '../reference-changes.js';
export { ReferenceCache, type ReferenceCacheOptions } from '../reference-cache.js';
export * from '../operator-accounts/index.js';
