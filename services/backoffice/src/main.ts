import { parseEnv } from './env.js';
import { startBackoffice } from './service.js';

const backoffice = await startBackoffice(parseEnv(process.env));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    backoffice.stop().then(() => process.exit(0), () => process.exit(1));
  });
}
