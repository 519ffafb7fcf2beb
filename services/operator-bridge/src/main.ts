import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startOperatorBridge } from './service.js';

const env = parseEnv(process.env);
const logger = createLogger('operator-bridge', env.LOG_LEVEL);
runUntilSignal(await startOperatorBridge(env, { logger }), logger);
