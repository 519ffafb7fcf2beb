import { DEMO_MERCHANT } from '@mm/config';
import { createLogger, listen, runUntilSignal } from '@mm/observability';
import { createInboxApp } from './inbox-app.js';

const logger = createLogger('webhook-inbox', process.env.LOG_LEVEL ?? 'info');
const { app } = createInboxApp(process.env.DEMO_API_SECRET ?? DEMO_MERCHANT.apiSecret);
const { server, port } = await listen(app, Number(process.env.WEBHOOK_INBOX_PORT ?? 3004), '0.0.0.0');
logger.info({ url: `http://127.0.0.1:${port}/` }, 'demo webhook inbox listening');
runUntilSignal(
  {
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Open browser tabs keep idle connections: they must not hold the stop.
        server.closeAllConnections();
      }),
  },
  logger,
);
