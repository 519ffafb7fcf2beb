import { DEMO_MERCHANT } from '@mm/config';
import { createInboxApp } from './inbox-app.js';

const port = Number(process.env.WEBHOOK_INBOX_PORT ?? 3004);
const { app } = createInboxApp(process.env.DEMO_API_SECRET ?? DEMO_MERCHANT.apiSecret);
const server = app.listen(port, '0.0.0.0', () => console.log(`demo webhook inbox on http://127.0.0.1:${port}/`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => server.close(() => process.exit(0)));
