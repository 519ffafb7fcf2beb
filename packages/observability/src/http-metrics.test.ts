import express from 'express';
import { Registry } from 'prom-client';
import { sumBy } from '@mm/testing';
import { httpMetrics } from './http-metrics.js';
import { listen } from './listen.js';

/** The count of observations per label set, read from the registry's text as Prometheus would. */
async function counts(registry: Registry): Promise<Record<string, number>> {
  return sumBy(
    await registry.metrics(),
    'mm_http_request_duration_seconds_count',
    (l) => `${l.method} ${l.route} ${l.status}`,
  );
}

describe('httpMetrics', () => {
  it('labels each request with its route template and status, thrown errors and nested routers included', async () => {
    const registry = new Registry();
    const app = express();
    app.use(httpMetrics(registry));
    const inner = express.Router();
    inner.get('/payments/:id', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 2));
      res.json({});
    });
    inner.get('/refunds/:id', async () => {
      throw new Error('refused');
    });
    const api = express.Router();
    api.use(inner);
    app.use('/api/v1', api);
    app.get('/health', (_req, res) => {
      res.json({});
    });
    app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(409).json({});
    });
    const { server, port } = await listen(app, 0, '127.0.0.1');
    try {
      for (const path of [
        '/api/v1/payments/a',
        '/api/v1/payments/b',
        '/api/v1/refunds/c',
        '/health',
        '/api/v1/nowhere/d',
        '/e',
      ]) {
        await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer();
      }
    } finally {
      server.close();
    }
    expect(await counts(registry)).toEqual({
      'GET /api/v1/payments/:id 200': 2,
      'GET /api/v1/refunds/:id 409': 1,
      'GET /health 200': 1,
      'GET unmatched 404': 2,
    });
  });

  it('registers its histogram once per registry, however many apps mount it', () => {
    const registry = new Registry();
    httpMetrics(registry);
    expect(() => httpMetrics(registry)).not.toThrow();
    expect(registry.getMetricsAsArray()).toHaveLength(1);
  });
});
