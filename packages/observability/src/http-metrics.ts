import type { RequestHandler } from 'express';
import { Histogram, type Registry } from 'prom-client';

/** Latency buckets (seconds) shared by the HTTP, job and operator histograms: 5 ms to 30 s. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A metric registered once per registry, whatever the number of callers (several workers per process). */
export function singleMetric<M>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}

/** mm_http_request_duration_seconds{method, route, status}: mount it first, before any router. */
export function httpMetrics(registry: Registry): RequestHandler {
  const duration = singleMetric(
    registry,
    'mm_http_request_duration_seconds',
    () =>
      new Histogram({
        name: 'mm_http_request_duration_seconds',
        help: 'HTTP requests served, by method, route template and status, with their duration.',
        labelNames: ['method', 'route', 'status'],
        buckets: LATENCY_BUCKETS,
        registers: [registry],
      }),
  );
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // The label is the route template (`/api/v1/payments/:id`), never the raw path: ids in labels would
    // grow the series without bound. It is taken when the router assigns req.route, because the router
    // resets req.baseUrl as it unwinds, before an error handler answers a thrown error.
    let route = 'unmatched';
    let current: unknown;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => current,
      set: (value: { path?: unknown } | undefined) => {
        current = value;
        if (typeof value?.path === 'string') route = `${req.baseUrl}${value.path}`;
      },
    });
    res.once('finish', () => {
      duration.observe(
        { method: req.method, route, status: String(res.statusCode) },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  };
}
