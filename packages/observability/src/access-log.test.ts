import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { accessLog } from './access-log.js';
import { createLogger } from './logger.js';
import { requestId } from './request-id.js';

describe('access log', () => {
  it('writes the request id, method, url, status, duration and the transaction id the route set, and no header', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const app = express();
    app.use(requestId);
    app.use(accessLog(createLogger('test', 'info', sink)));
    app.get('/payments/:id', (req, res) => {
      res.locals.transactionId = req.params.id;
      res.status(404).json({ error: 'not found' });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/payments/abc`, {
        headers: { 'X-Request-Id': 'req-42', 'X-Service-Key': 'pk_test_key', 'X-Service-Signature': 'sig-value' },
      });
      expect(res.status).toBe(404);
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      request_id: 'req-42', transaction_id: 'abc',
      req: { id: 'req-42', method: 'GET', url: '/payments/abc' }, res: { statusCode: 404 }, responseTime: expect.any(Number),
    });
    expect(lines[0]).not.toMatch(/pk_test_key|sig-value|headers/);
  });
});
