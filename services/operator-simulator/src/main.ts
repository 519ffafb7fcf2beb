import { createLogger, runUntilSignal } from '@mm/observability';
import { parseEnv } from './env.js';
import { startSimulator } from './index.js';
import { logTo } from './log.js';
import { parseMockEnv } from './mocks/mock-env.js';
import { startOperatorMocks } from './mocks/operator-mocks.js';

const env = parseEnv(process.env);
const mockEnv = parseMockEnv(process.env);
const logger = createLogger('operator-simulator', env.logLevel);
const log = logTo(logger);
const simulator = await startSimulator({ ...env, log });
log('started', { url: simulator.url, phone: `${simulator.url}/phone`, records: env.recordsDir ?? 'in memory' });
const mocks = mockEnv.enabled
  ? await startOperatorMocks({ ...mockEnv, outcomeDelayMs: env.outcomeDelayMs, lateConfirmDelayMs: env.lateConfirmDelayMs, recordsDir: env.recordsDir, log })
  : null;
if (mocks) log('operator mocks started', mocks.urls);
runUntilSignal({ stop: async () => { await mocks?.close(); await simulator.close(); } }, logger);
