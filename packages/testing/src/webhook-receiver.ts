/** A merchant's webhook endpoint for tests (dispatcher, e2e, chaos): records every request, answers as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  /** The raw body text, as a merchant must verify it. */
  body: string;
  receivedAt: number;
  /** The sender's port: requests that came over one kept-alive connection share it. */
  remotePort: number;
}

/** A status code to answer with (now, or when the promise settles), or 'hang' to never answer. */
export type Reply = number | Promise<number> | 'hang';

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides the answer to the n-th request (0-based); replace it at any time. */
  reply: (n: number, req: ReceivedRequest) => Reply;
  /** TCP connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** 127.0.0.1 unless told: another loopback address (127.0.0.2) stands for a second host. */
  host?: string;
  /** A free port unless told (the same port on two loopback addresses). */
  port?: number;
}

/** A merchant's webhook endpoint on 127.0.0.1, recording every request it gets. */
export async function startReceiver(
  reply: Receiver['reply'] = () => 200,
  options: ReceiverOptions = {},
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver: Receiver = { url: '', requests, reply, connections: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        remotePort: req.socket.remotePort ?? 0,
      };
      requests.push(received);
      const answer = receiver.reply(requests.length - 1, received);
      if (answer === 'hang') return;
      void Promise.resolve(answer).then((status) => res.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok'));
    });
  });
  server.on('connection', () => {
    receiver.connections++;
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://${host}:${port}/webhooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
