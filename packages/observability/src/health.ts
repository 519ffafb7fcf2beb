import express, { type Router } from 'express';
import type { Server } from 'node:http';
import type { Registry } from 'prom-client';
import { httpMetrics } from './http-metrics.js';
import { listen } from './listen.js';

export type ReadinessCheck = () => Promise<unknown>;

/** GET /health (process alive), GET /ready (every dependency answers), GET /metrics. */
export function createHealthRouter(checks: Record<string, ReadinessCheck>, registry?: Registry): Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (_req, res) => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          return [name, 'ok'] as const;
        } catch (err) {
          return [name, `failed: ${(err as Error).message}`] as const;
        }
      }),
    );
    const ready = results.every(([, r]) => r === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
  });
  if (registry) {
    router.get('/metrics', async (_req, res) => {
      res.type(registry.contentType).send(await registry.metrics());
    });
  }
  return router;
}

/** For workers that serve no other HTTP: a small server with the health routes only. */
export async function startHealthServer(port: number, router: Router, registry?: Registry): Promise<Server> {
  const app = express();
  if (registry) app.use(httpMetrics(registry));
  app.use(router);
  return (await listen(app, port)).server;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}
