import { parseEnv } from './env.js';
import { startGateway } from './service.js';

const gateway = await startGateway(parseEnv(process.env));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    gateway.stop().then(() => process.exit(0), () => process.exit(1));
  });
}
