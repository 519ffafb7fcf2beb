import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { webhookMiddleware, type WebhookEvent, type WebhookRequest } from '@mm/sdk';

/**
 * A merchant's webhook endpoint built the way the SDK's README says: Express, the SDK's middleware on
 * the route (before any JSON parser), the verified event on `req.webhookEvent`.
 */
export async function startSdkWebhookEndpoint(secret: string | string[]) {
  const events: WebhookEvent[] = [];
  const app = express();
  app.post('/hooks', webhookMiddleware({ secret }), (req, res) => {
    events.push((req as WebhookRequest).webhookEvent!);
    res.sendStatus(204);
  });
  // The mistake the middleware must catch: a JSON parser ran first, so the bytes that were signed are gone.
  app.post('/parsed-first', express.json(), webhookMiddleware({ secret }), (_req, res) => res.sendStatus(204));
  app.post('/raw-first', express.raw({ type: 'application/json' }), webhookMiddleware({ secret }), (req, res) => {
    events.push((req as WebhookRequest).webhookEvent!);
    res.sendStatus(204);
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
