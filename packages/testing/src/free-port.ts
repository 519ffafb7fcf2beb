import { createServer } from 'node:net';

/** A TCP port free on the loopback right now, for a server that must know its port before it starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * freePort for a whole system of processes that bind later: every port it gives is distinct. The
 * kernel can hand the same free port out twice in a row (nothing holds it between the calls), and two
 * services given one port fail to start with EADDRINUSE.
 */
export function distinctFreePorts(): () => Promise<number> {
  const given = new Set<number>();
  return async () => {
    for (;;) {
      const port = await freePort();
      if (!given.has(port)) {
        given.add(port);
        return port;
      }
    }
  };
}
