import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import { WebhookConnections } from './connections.js';
import { TARGET_REFUSED } from './merchant-reasons.js';
import { attemptDelivery, type AttemptDeps } from './processors/webhook-deliveries.js';
import type { Lookup } from './target-guard.js';

/**
 * Deliveries over kept-alive connections, as the handler makes them (guard, then request), against
 * receivers on loopback addresses standing for a merchant's host. `dns` is what the host resolves to
 * at each attempt.
 */
const HOST = 'hooks.test';
let dns: Record<string, string[]> = {};
const lookup: Lookup = async (host) => {
  const addresses = dns[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: 4 as const }));
};

const event = { id: 'evt-1', merchantId: 'm-1', payload: { event: 'transaction.status_changed' } };
const deps = (connections: WebhookConnections, allowPrivate = true): AttemptDeps => ({
  signingSecret: async () => 'sk_test',
  timeoutMs: 2000,
  allowPrivate,
  connections,
  lookup,
});
const urlOf = (port: number, host = HOST) => `http://${host}:${port}/webhooks`;
const portOf = (r: Receiver) => Number(new URL(r.url).port);

/** A merchant server that never answers a request coming on a connection it already answered on: it closes it (an idle timeout racing our next request). */
async function closingServer(): Promise<{ server: Server; port: number; requests: number; connections: number }> {
  const state = { server: null as unknown as Server, port: 0, requests: 0, connections: 0 };
  const answered = new WeakSet<object>();
  state.server = createHttpServer((req, res) => {
    state.requests++;
    req.resume();
    req.on('end', () => {
      if (answered.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      answered.add(req.socket);
      res.end('ok');
    });
  });
  state.server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.port = (state.server.address() as AddressInfo).port;
  return state;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

describe('kept-alive webhook connections', () => {
  let connections: WebhookConnections;
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  beforeEach(() => {
    connections = new WebhookConnections({ maxSocketsPerTarget: 4 });
    dns = {};
  });
  afterEach(async () => {
    connections.close();
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  it('two deliveries to the same merchant go over one connection', async () => {
    const r = await receiver();
    dns = { [HOST]: ['127.0.0.1'] };
    const first = await attemptDelivery(deps(connections), event, urlOf(portOf(r)));
    const second = await attemptDelivery(deps(connections), event, urlOf(portOf(r)));
    expect([first.success, second.success]).toEqual([true, true]);
    expect(r.requests).toHaveLength(2);
    expect(r.connections).toBe(1);
    expect(r.requests[1]!.remotePort).toBe(r.requests[0]!.remotePort);
  });

  it('a host whose address changed is checked again and gets a connection to the new address; the old one only ever carries its own address', async () => {
    const a = await receiver();
    // The same port on another loopback address: the same URL, another address behind it.
    const b = await receiver(undefined, { host: '127.0.0.2', port: portOf(a) });
    const url = urlOf(portOf(a));
    dns = { [HOST]: ['127.0.0.1'] };
    await attemptDelivery(deps(connections), event, url);
    await attemptDelivery(deps(connections), event, url);
    dns = { [HOST]: ['127.0.0.2'] };
    expect((await attemptDelivery(deps(connections), event, url)).success).toBe(true);
    expect([a.requests.length, a.connections, b.requests.length, b.connections]).toEqual([2, 1, 1, 1]);
    dns = { [HOST]: ['127.0.0.1'] };
    expect((await attemptDelivery(deps(connections), event, url)).success).toBe(true);
    expect([a.requests.length, a.connections, b.requests.length, b.connections]).toEqual([3, 1, 1, 1]);

    // A connection to the host is open in the pool: it does not exempt the next attempt from the
    // guard. With private networks refused (production), a private answer, or the very address of the
    // open connection, is refused and nothing is sent.
    for (const answer of ['10.0.0.7', '127.0.0.1']) {
      dns = { [HOST]: [answer] };
      const refused = await attemptDelivery(deps(connections, false), event, url);
      expect(refused).toEqual(expect.objectContaining({ success: false, statusCode: null, error: TARGET_REFUSED }));
      expect(refused.errorDetail).toMatch(new RegExp(`^refused target ${HOST}: ${answer.replaceAll('.', '\\.')} is a`));
    }
    expect([a.requests.length, b.requests.length]).toEqual([3, 1]);
  });

  it('closes a connection idle for longer than the idle timeout', async () => {
    connections = new WebhookConnections({ maxSocketsPerTarget: 4, idleTimeoutMs: 100 });
    const r = await receiver();
    dns = { [HOST]: ['127.0.0.1'] };
    await attemptDelivery(deps(connections), event, urlOf(portOf(r)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await attemptDelivery(deps(connections), event, urlOf(portOf(r)));
    expect(r.connections).toBe(2);
  });

  it('keeps at most maxTargets pools, dropping the least recently used', async () => {
    connections = new WebhookConnections({ maxSocketsPerTarget: 4, maxTargets: 1 });
    const a = await receiver();
    const b = await receiver(undefined, { host: '127.0.0.2' });
    dns = { 'a.test': ['127.0.0.1'], 'b.test': ['127.0.0.2'] };
    await attemptDelivery(deps(connections), event, urlOf(portOf(a), 'a.test'));
    await attemptDelivery(deps(connections), event, urlOf(portOf(b), 'b.test'));
    expect(connections.size).toBe(1);
    await attemptDelivery(deps(connections), event, urlOf(portOf(a), 'a.test'));
    expect([a.requests.length, a.connections, b.connections]).toEqual([2, 2, 1]);
  });

  it('opens at most maxSocketsPerTarget connections to one target; deliveries beyond wait for one', async () => {
    connections = new WebhookConnections({ maxSocketsPerTarget: 2 });
    let release!: (status: number) => void;
    const held = new Promise<number>((resolve) => {
      release = resolve;
    });
    const r = await receiver(() => held);
    dns = { [HOST]: ['127.0.0.1'] };
    const all = Promise.all([1, 2, 3, 4].map(() => attemptDelivery(deps(connections), event, urlOf(portOf(r)))));
    await waitFor(() => r.requests.length === 2, { what: 'two requests held' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.requests).toHaveLength(2);
    release(200);
    expect((await all).map((x) => x.success)).toEqual([true, true, true, true]);
    expect(r.connections).toBe(2);
  });

  it('a kept-alive connection the merchant closed is reset when reused: the request goes again once, on a new connection, in the same attempt', async () => {
    const s = await closingServer();
    try {
      dns = { [HOST]: ['127.0.0.1'] };
      expect((await attemptDelivery(deps(connections), event, urlOf(s.port))).success).toBe(true);
      const second = await attemptDelivery(deps(connections), event, urlOf(s.port));
      expect(second).toEqual(expect.objectContaining({ success: true, statusCode: 200, error: null }));
      // The first delivery, the one cut on the reused connection, its retry on a new one.
      expect([s.requests, s.connections]).toEqual([3, 2]);
    } finally {
      await closeServer(s.server);
    }
  });

  it("a reset of a new connection is the attempt's outcome, not retried", async () => {
    const server = createHttpServer((req) => {
      req.resume();
      req.on('end', () => req.socket.destroy());
    });
    let requests = 0;
    server.on('request', () => requests++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      dns = { [HOST]: ['127.0.0.1'] };
      const result = await attemptDelivery(deps(connections), event, urlOf((server.address() as AddressInfo).port));
      expect(result).toEqual(expect.objectContaining({ success: false, statusCode: null, error: 'connection reset' }));
      expect(requests).toBe(1);
    } finally {
      await closeServer(server);
    }
  });

  it('over TLS the server name (SNI) is the host, while the connection goes to the checked address', async () => {
    const names: string[] = [];
    // No certificate at all: the handshake fails once the server has read the name the client asked for.
    const server = createTlsServer({
      SNICallback: (servername, callback) => {
        names.push(servername);
        callback(new Error('no certificate here'));
      },
    });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      dns = { [HOST]: ['127.0.0.1'] };
      const result = await attemptDelivery(
        deps(connections),
        event,
        `https://${HOST}:${(server.address() as AddressInfo).port}/webhooks`,
      );
      expect(result).toEqual(expect.objectContaining({ success: false, statusCode: null }));
      expect(names).toEqual([HOST]);
    } finally {
      await closeServer(server);
    }
  });
});
