export { parseEnv, type MerchantPortalEnv } from './env.js';
export { startMerchantPortal, type PortalOverrides, type RunningPortal } from './service.js';
export { totpBinding } from './use-cases/sign-in.js';
// `pnpm start` prints the demo owner's otpauth:// URI with the portal's own parameters.
export { newTotpSecret, totpCode, totpUri } from './auth/totp.js';
