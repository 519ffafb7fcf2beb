import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@mm/testing';
import { SimulatorOperatorAdapter } from '../simulator/client.js';
import { lookup } from '../testing/payment-lookup.js';
import { OPERATOR_MAX_SOCKETS, operatorHttp } from './operator-http.js';

/** An operator that answers the simulator's protocol and records the connection of every request. */
async function recordingOperator(hold?: Promise<void>) {
  const seen: { url: string; remotePort: number }[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ url: req.url ?? '', remotePort: req.socket.remotePort ?? 0 });
      const answer = () => {
        if (req.method === 'POST')
          res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ session_id: 'sess-1' }));
        else
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({
              partner_reference: 'tx-1',
              state: 'OK',
              txn_status: 'SUCCESSFUL',
              provider_tx_id: 'op-1',
              failure_reason: null,
            }),
          );
      };
      if (hold) void hold.then(answer);
      else answer();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('connections to operators', () => {
  it('a push and the status queries after it, of two accounts of the same operator, go over one kept-alive connection', async () => {
    const op = await recordingOperator();
    try {
      const account = () =>
        new SimulatorOperatorAdapter({ baseUrl: op.url, apiToken: 'tok', callbackSecret: 'sec', timeoutMs: 2_000 });
      const [a, b] = [account(), account()];
      await a.pushUssd({
        partnerReference: 'tx-1',
        msisdn: '+2250700000001',
        amount: 100,
        currency: 'XOF',
        motif: null,
        callbackUrl: 'http://h/cb',
      });
      await a.queryStatus(lookup('tx-1'));
      await b.queryStatus(lookup('tx-1'));
      expect(op.seen.map((s) => s.url)).toEqual(['/v1/payments/ussd-push', '/v1/payments/tx-1', '/v1/payments/tx-1']);
      expect(new Set(op.seen.map((s) => s.remotePort)).size).toBe(1);
      expect(op.connections()).toBe(1);
    } finally {
      await op.close();
    }
  });

  it(`opens at most ${OPERATOR_MAX_SOCKETS} connections to one operator; calls beyond wait for one`, async () => {
    let release!: () => void;
    const op = await recordingOperator(
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    try {
      const http = operatorHttp(op.url, 10_000);
      const calls = Promise.all(
        Array.from({ length: OPERATOR_MAX_SOCKETS + 20 }, (_, i) => http.get(`/v1/payments/ref-${i}`)),
      );
      await waitFor(() => op.seen.length === OPERATOR_MAX_SOCKETS, {
        what: `${OPERATOR_MAX_SOCKETS} calls held by the operator`,
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(op.seen).toHaveLength(OPERATOR_MAX_SOCKETS);
      release();
      expect((await calls).every((r) => r.status === 200)).toBe(true);
      expect(op.connections()).toBe(OPERATOR_MAX_SOCKETS);
    } finally {
      await op.close();
    }
  });
});
