export { parseEnv, type MerchantPortalEnv } from './env.js';
export { startMerchantPortal, type PortalOverrides, type RunningPortal } from './service.js';
export { totpBinding } from './use-cases/sign-in.js';
export { newTotpSecret, totpCode, totpUri } from './auth/totp.js';
