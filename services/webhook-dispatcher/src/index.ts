export { startWebhookDispatcher, type WebhookDispatcher } from './service.js';
export { parseEnv, type WebhookDispatcherEnv } from './env.js';
