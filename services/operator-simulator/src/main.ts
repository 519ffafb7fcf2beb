import { parseEnv } from './env.js';
import { startSimulator } from './index.js';
import { jsonLineLog } from './log.js';

const env = parseEnv(process.env);
const simulator = await startSimulator({ ...env, log: jsonLineLog });
jsonLineLog('started', { url: simulator.url, phone: `${simulator.url}/phone` });

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  jsonLineLog('stopping', { signal });
  simulator.close().then(
    () => process.exit(0),
    (err: unknown) => {
      jsonLineLog('stop_failed', { error: String(err) });
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
