import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves `app` on port (0: a free one); close() also drops hanging requests and keep-alive sockets. */
export async function listen(
  app: Express,
  port: number,
  host = '127.0.0.1',
  onClose: () => void = () => undefined,
): Promise<Listening> {
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${actual}`,
    port: actual,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        onClose();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
