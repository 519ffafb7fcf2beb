import { logTo } from '@mm/fake-operator';
import { createLogger, runUntilSignal } from '@mm/observability';
import { parseMockEnv } from './mock-env.js';
import { startOperatorMocks } from './operator-mocks.js';

const env = parseMockEnv(process.env);
const logger = createLogger('operator-mocks', env.logLevel);
const log = logTo(logger);
const mocks = await startOperatorMocks({ ...env, log });
log('started', { ...mocks.urls, records: env.recordsDir ?? 'in memory' });
runUntilSignal({ stop: () => mocks.close() }, logger);
