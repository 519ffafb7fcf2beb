import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { accessLog } from './access-log.js';
import { createLogger } from './logger.js';
import { requestId } from './request-id.js';

/** Serves `app` for one request to `path`. */
async function requestOnce(app: express.Express, path: string, init?: RequestInit): Promise<void> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, init)).arrayBuffer();
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('access log', () => {
  it('writes the request id, method, url, status, duration and the transaction id the route set, and no header', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
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
      request_id: 'req-42',
      transaction_id: 'abc',
      req: { id: 'req-42', method: 'GET', url: '/payments/abc' },
      res: { statusCode: 404 },
      responseTime: expect.any(Number),
    });
    expect(lines[0]).not.toMatch(/pk_test_key|sig-value|headers/);
  });

  it("writes the fields in pino-http's order, one line, through a logger that redacts the rest of the service's lines", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('test', 'info', sink);
    const app = express();
    app.use(requestId);
    app.use(accessLog(logger));
    app.get('/pay/:id', (_req, res) => {
      res.json({ ok: true });
    });
    await requestOnce(app, '/pay/x?msisdn=1', { headers: { 'X-Request-Id': 'req-43' } });
    logger.info({ msisdn: '+2250707000001' }, 'other line');
    expect(lines).toHaveLength(2);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'name',
      'req',
      'request_id',
      'res',
      'responseTime',
      'msg',
    ]);
    expect(line).toMatchObject({
      level: 30,
      name: 'test',
      req: { id: 'req-43', method: 'GET', url: '/pay/x?msisdn=1' },
      request_id: 'req-43',
      res: { statusCode: 200 },
      msg: 'request completed',
    });
    expect(JSON.parse(lines[1]!)).toMatchObject({ msisdn: '[redacted]', msg: 'other line' });
  });

  it('writes a 5xx as "request errored" with an err, as pino-http did', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = express();
    app.use(requestId);
    app.use(accessLog(createLogger('test', 'info', sink)));
    app.get('/boom', (_req, res) => {
      res.status(503).json({ error: 'down' });
    });
    await requestOnce(app, '/boom');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      req: { method: 'GET', url: '/boom' },
      res: { statusCode: 503 },
      err: { type: 'Error', message: 'failed with status code 503' },
      responseTime: expect.any(Number),
      msg: 'request errored',
    });
  });

  it('writes nothing below its level', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = express();
    app.use(requestId);
    app.use(accessLog(createLogger('test', 'warn', sink)));
    app.get('/x', (_req, res) => {
      res.json({ ok: true });
    });
    await requestOnce(app, '/x');
    expect(lines).toEqual([]);
  });
});
