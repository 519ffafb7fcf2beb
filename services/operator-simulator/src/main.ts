import { createLogger } from '@mm/observability';
import { parseEnv } from './env.js';
import { startSimulator } from './index.js';
import { logTo } from './log.js';

const env = parseEnv(process.env);
const logger = createLogger('operator-simulator', env.logLevel);
const log = logTo(logger);
const simulator = await startSimulator({ ...env, log });
log('started', { url: simulator.url, phone: `${simulator.url}/phone` });

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  log('stopping', { signal });
  simulator.close().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'stop failed');
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
