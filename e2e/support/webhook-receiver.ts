import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown>;
}

/** A merchant's webhook endpoint: records every delivery; answers with `status()` (200 by default). */
export async function startWebhookReceiver(): Promise<{
  url: string;
  received: ReceivedWebhook[];
  status: (code: number) => void;
  close(): Promise<void>;
}> {
  const received: ReceivedWebhook[] = [];
  let answer = 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, rawBody, body: JSON.parse(rawBody) as Record<string, unknown> });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    status: (code) => { answer = code; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
