import type { RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { accessLog } from './access-log.js';
import { httpMetrics } from './http-metrics.js';
import type { Logger } from './logger.js';
import { requestId } from './request-id.js';

/**
 * httpMetrics, requestId and accessLog, in that order, as one middleware: what an app mounts first. The
 * same three, each calling the next, in one router layer instead of three (every request of an app
 * walks its layers one by one).
 */
export function observeRequests(o: { metrics: Registry; logger: Logger }): RequestHandler {
  const metrics = httpMetrics(o.metrics);
  const log = accessLog(o.logger);
  return (req, res, next) => {
    void metrics(req, res, (err?: unknown) => {
      if (err) return next(err);
      void requestId(req, res, (err2?: unknown) => (err2 ? next(err2) : void log(req, res, next)));
    });
  };
}
