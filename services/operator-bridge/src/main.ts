import { parseEnv } from './env.js';
import { startOperatorBridge } from './service.js';

const bridge = await startOperatorBridge(parseEnv(process.env));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    bridge.stop().then(() => process.exit(0), () => process.exit(1));
  });
}
