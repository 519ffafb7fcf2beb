import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startMerchantPortal } from './service.js';

const env = parseEnv(process.env);
const logger = createLogger('merchant-portal', env.LOG_LEVEL);
runUntilSignal(await startMerchantPortal(env, { logger }), logger);
