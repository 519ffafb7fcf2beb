import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { Registry } from 'prom-client';
import { sumBy } from '@mm/testing';
import { createLogger } from './logger.js';
import { observeRequests } from './observe-requests.js';

describe('observeRequests', () => {
  it('does what httpMetrics, requestId and accessLog do, as one layer', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const registry = new Registry();
    const app = express();
    app.use(observeRequests({ metrics: registry, logger: createLogger('test', 'info', sink) }));
    app.get('/payments/:id', (req, res) => {
      res.locals.transactionId = req.params.id;
      res.json({ ok: true });
    });
    app.get('/aborted', () => undefined);
    // One layer, then the two routes.
    expect((app as unknown as { router: { stack: unknown[] } }).router.stack).toHaveLength(3);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let requestId: string | null;
    try {
      const res = await fetch(`${url}/payments/abc`);
      requestId = res.headers.get('x-request-id');
      await res.arrayBuffer();
      // A client that gives up before the answer.
      await fetch(`${url}/aborted`, { signal: AbortSignal.timeout(100) }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        req: { id: requestId, method: 'GET', url: '/payments/abc' },
        request_id: requestId,
        transaction_id: 'abc',
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
        msg: 'request completed',
      }),
      expect.objectContaining({ req: expect.objectContaining({ url: '/aborted' }), msg: 'request aborted' }),
    ]);
    expect(
      await sumBy(
        await registry.metrics(),
        'mm_http_request_duration_seconds_count',
        (l) => `${l.method} ${l.route} ${l.status}`,
      ),
    ).toEqual({ 'GET /payments/:id 200': 1 });
  });
});
