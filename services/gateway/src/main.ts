import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startGateway } from './service.js';

const env = parseEnv(process.env);
const logger = createLogger('gateway', env.LOG_LEVEL);
runUntilSignal(await startGateway(env, { logger }), logger);
