import { parseEnv } from './env.js';
import { startRefundWorker } from './service.js';

const worker = await startRefundWorker(parseEnv(process.env));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    worker.stop().then(() => process.exit(0), () => process.exit(1));
  });
}
