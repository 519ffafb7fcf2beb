/** A merchant's webhook endpoint for tests (dispatcher, e2e, chaos): records every request, answers as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  /** The raw body text, as a merchant must verify it. */
  body: string;
  receivedAt: number;
}

/** A status code to answer with (now, or when the promise settles), or 'hang' to never answer. */
export type Reply = number | Promise<number> | 'hang';

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides the answer to the n-th request (0-based); replace it at any time. */
  reply: (n: number, req: ReceivedRequest) => Reply;
  close(): Promise<void>;
}

/** A merchant's webhook endpoint on 127.0.0.1, recording every request it gets. */
export async function startReceiver(reply: Receiver['reply'] = () => 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver: Receiver = { url: '', requests, reply, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      requests.push(received);
      const answer = receiver.reply(requests.length - 1, received);
      if (answer === 'hang') return;
      void Promise.resolve(answer).then((status) => res.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/webhooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
