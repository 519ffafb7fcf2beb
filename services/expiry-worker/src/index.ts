export { startExpiryWorker, type ExpiryOverrides } from './service.js';
export { parseEnv, type ExpiryEnv } from './env.js';
