import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startExpiryWorker } from './service.js';

const env = parseEnv(process.env);
const logger = createLogger('expiry-worker', env.LOG_LEVEL);
runUntilSignal(await startExpiryWorker(env, { logger }), logger);
