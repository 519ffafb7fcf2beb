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
  /**
   * Once, the next time a client sends bytes `matches` accepts: they are passed on to the server, and
   * that client's connection is then reset before any answer can reach it (a COMMIT the server carries
   * out while its client loses the connection). With `forwardAfterMs`, the client's connection is reset
   * first and those bytes reach the server that much later (a COMMIT still on its way when its client
   * asks what became of it).
   */
  cutAfterClientSends(matches: (chunk: Buffer) => boolean, options?: { forwardAfterMs?: number }): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpRelay(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let armed: { matches: (chunk: Buffer) => boolean; forwardAfterMs: number } | null = null;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const onConnection = (client: Socket) => {
    const upstream = connect(targetPort, targetHost);
    track(client);
    track(upstream);
    // Either side ending or failing ends the other: a relay never keeps half a connection.
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      if (armed?.matches(chunk)) {
        const { forwardAfterMs } = armed;
        armed = null;
        // The server gets the bytes and answers them; the client never gets the answer. The server's
        // side is closed a moment later, once it had time to carry them out.
        upstream.removeAllListeners('data');
        const forward = () => {
          upstream.write(chunk);
          setTimeout(() => upstream.end(), 200).unref();
        };
        if (forwardAfterMs === 0) forward();
        client.resetAndDestroy();
        if (forwardAfterMs > 0) setTimeout(forward, forwardAfterMs).unref();
        return;
      }
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.on('data', (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk);
    });
    upstream.on('end', () => client.end());
    client.on('end', () => upstream.end());
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  const port = await listen(0);
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.resetAndDestroy();
    });
  return {
    port,
    url: (scheme, path = '') => `${scheme}://127.0.0.1:${port}${path}`,
    cut: stopListening,
    cutAfterClientSends(matches, options = {}) {
      armed = { matches, forwardAfterMs: options.forwardAfterMs ?? 0 };
    },
    async restore() {
      if (server.listening) return;
      server = createServer(onConnection);
      await listen(port);
    },
    close: stopListening,
  };
}
