import express, { type ErrorRequestHandler, type Express } from 'express';
import { createMetricsRegistry, httpMetrics } from '@mm/observability';
import type { Faults } from './faults.js';
import { type Log, statementRoutes } from '@mm/fake-operator';
import { faultsRouter } from './routes/faults.js';
import { operatorApiRouter, type OperatorApiDeps } from './routes/operator-api.js';
import { delayWhileSlow, refuseWhileDown } from './routes/partner-faults.js';
import { sandboxRouter } from './routes/sandbox.js';
import { sandboxAuth } from './routes/sandbox-auth.js';
import { simulatorLines } from './movements.js';

export interface SimulatorAppDeps extends OperatorApiDeps {
  faults: Faults;
  log: Log;
  /** Bearer token (or cookie, see sandboxAuth) of the sandbox routes and the virtual phone. */
  sandboxToken: string;
}

/**
 * The HTTP surface: partner API under /v1 (the operator's token), sandbox and virtual phone outside it (the
 * sandbox token), health and metrics (open). Faults touch /v1 only, so a chaos test can always reach the
 * sandbox to switch them off again.
 */
export function createSimulatorApp(deps: SimulatorAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Its HTTP metrics are the operator's side of the bridge's mm_operator_request_duration_seconds.
  const metrics = createMetricsRegistry('operator-simulator');
  app.use(httpMetrics(metrics));
  app.use('/v1', refuseWhileDown(deps.faults, deps.log));
  app.use(express.json({ limit: '16kb' }));

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.metrics());
  });
  app.use('/v1', delayWhileSlow(deps.faults, deps.timers, deps.log), operatorApiRouter(deps));
  app.use(['/sandbox', '/phone'], sandboxAuth(deps.sandboxToken));
  app.use(sandboxRouter(deps));
  // The operator's books for reconciliation tests: the day's CSV statement, and differences planted in it.
  app.use(
    '/sandbox',
    statementRoutes({ lines: () => simulatorLines(deps.store, deps.refunds, deps.disbursements), plants: deps.plants }),
  );
  app.use(faultsRouter(deps.faults, deps.log));
  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found' });
  });

  const onError: ErrorRequestHandler = (
    err: { status?: number; type?: string; message?: string },
    _req,
    res,
    _next,
  ) => {
    // body-parser errors carry their status (400 malformed JSON, 413 too large); anything else is ours.
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    res.status(status).json({ error: status === 500 ? 'internal_error' : 'invalid_request', message: err.message });
  };
  app.use(onError);
  return app;
}
