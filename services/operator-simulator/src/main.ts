import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startSimulator } from './index.js';
import { logTo } from './log.js';

const env = parseEnv(process.env);
const logger = createLogger('operator-simulator', env.logLevel);
const log = logTo(logger);
const simulator = await startSimulator({ ...env, log });
log('started', { url: simulator.url, phone: `${simulator.url}/phone` });
runUntilSignal({ stop: () => simulator.close() }, logger);
