import express from 'express';
import type { Logger } from './logger.js';
import type { Registry } from 'prom-client';
import { liveness, metricsEndpoint, readiness, type ReadinessCheck } from './health.js';
import { httpMetrics } from './http-metrics.js';
import { listen } from './listen.js';

export interface InternalServerOptions {
  /** The service's internal port (0: any free port, for tests). */
  port: number;
  readiness: Record<string, ReadinessCheck>;
  metrics: Registry;
  logger: Logger;
}

export interface InternalServer {
  port: number;
  /** http://127.0.0.1:<port>, for tests and scrapers on this host. */
  url: string;
  close(): Promise<void>;
}

/**
 * /health, /ready and /metrics on a port of their own, for probes and Prometheus only. A service's
 * public port (merchant API, staff app, operator callbacks) serves /health alone: readiness details
 * and metrics (routes, volumes, queue depths, failure rates) are for the platform, not for whoever
 * can reach the public address. Expose this port to the kubelet and the scraper, never through a
 * Service, an Ingress or a published Compose port.
 */
export async function startInternalServer(o: InternalServerOptions): Promise<InternalServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use(httpMetrics(o.metrics));
  app.get('/health', liveness);
  app.get('/ready', readiness(o.readiness, o.logger));
  app.get('/metrics', metricsEndpoint(o.metrics));
  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found' });
  });
  const { server, port } = await listen(app, o.port);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection would hold close() open; nothing here is long-running.
        server.closeAllConnections();
      }),
  };
}
