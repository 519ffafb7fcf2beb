import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startWebhookDispatcher } from './service.js';

const env = parseEnv(process.env);
const logger = createLogger('webhook-dispatcher', env.LOG_LEVEL);
runUntilSignal(await startWebhookDispatcher(env, { logger }), logger);
