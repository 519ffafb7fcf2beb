import { parseEnv } from './env.js';
import { startExpiryWorker } from './service.js';

const worker = await startExpiryWorker(parseEnv(process.env));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    worker.stop().then(() => process.exit(0), () => process.exit(1));
  });
}
