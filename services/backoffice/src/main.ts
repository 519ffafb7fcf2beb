import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startBackoffice } from './service.js';

const env = parseEnv(process.env);
const logger = createLogger('backoffice', env.LOG_LEVEL);
runUntilSignal(await startBackoffice(env, { logger }), logger);
