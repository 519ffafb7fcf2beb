export { startBackoffice, type RunningBackoffice, type BackofficeOverrides } from './service.js';
export { parseEnv, type BackofficeEnv } from './env.js';
export { createBackofficeApp, type BackofficeDeps } from './app.js';
