import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts listening; rejects (instead of running half-started) when the port is taken. */
export function listen(
  app: { listen(port: number, host: string): Server },
  port: number,
  host = '0.0.0.0',
): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('error', (err) =>
      reject(new Error(`cannot listen on ${host}:${port}: ${err.message}`, { cause: err })),
    );
    server.once('listening', () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}
