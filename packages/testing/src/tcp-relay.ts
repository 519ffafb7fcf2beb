import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on a port of its own to a server on this machine (Redis, PostgreSQL), which a test can
 * cut: every connection through it reset and new ones refused, as when the server's host goes away,
 * while the server itself keeps serving every other suite. `restore()` listens on the same port again.
 */
export interface TcpRelay {
  port: number;
  /** `scheme://127.0.0.1:port` + `path`: the target's address, through the relay. */
  url(scheme: string, path?: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpRelay(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); };
  const onConnection = (client: Socket) => {
    const upstream = connect(targetPort, targetHost);
    track(client);
    track(upstream);
    // Either side ending or failing ends the other: a relay never keeps half a connection.
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number) => new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  const port = await listen(0);
  const stopListening = () => new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const s of sockets) s.resetAndDestroy();
  });
  return {
    port,
    url: (scheme, path = '') => `${scheme}://127.0.0.1:${port}${path}`,
    cut: stopListening,
    async restore() {
      if (server.listening) return;
      server = createServer(onConnection);
      await listen(port);
    },
    close: stopListening,
  };
}
