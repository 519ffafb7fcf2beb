import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startRefundWorker } from './service.js';

const env = parseEnv(process.env);
const logger = createLogger('refund-worker', env.LOG_LEVEL);
runUntilSignal(await startRefundWorker(env, { logger }), logger);
