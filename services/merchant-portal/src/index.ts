export { parseEnv, type MerchantPortalEnv } from './env.js';
export { startMerchantPortal, type PortalOverrides, type RunningPortal } from './service.js';
