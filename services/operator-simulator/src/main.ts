import { createLogger, runUntilSignal } from '@mm/observability';
import { logTo } from '@mm/fake-operator';
import { parseEnv } from './env.js';
import { startSimulator } from './index.js';

const env = parseEnv(process.env);
const logger = createLogger('operator-simulator', env.logLevel);
const log = logTo(logger);
const simulator = await startSimulator({ ...env, log });
log('started', { url: simulator.url, phone: `${simulator.url}/phone`, records: env.recordsDir ?? 'in memory' });
runUntilSignal({ stop: () => simulator.close() }, logger);
