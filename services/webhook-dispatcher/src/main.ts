import { createLogger } from '@mm/observability';
import { parseEnv } from './env.js';
import { startWebhookDispatcher } from './service.js';

const env = parseEnv(process.env);
const logger = createLogger('webhook-dispatcher', env.LOG_LEVEL);
const dispatcher = await startWebhookDispatcher(env, { logger });

let stopping = false;
function shutdown(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  dispatcher.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'stop failed');
      process.exit(1);
    },
  );
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
