import express, { type ErrorRequestHandler, type Express } from 'express';
import { operatorApiRouter, type OperatorApiDeps } from './routes/operator-api.js';
import { sandboxRouter } from './routes/sandbox.js';

/** The HTTP surface: partner API under /v1, sandbox and virtual phone outside it, health. */
export function createSimulatorApp(deps: OperatorApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '16kb' }));

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/v1', operatorApiRouter(deps));
  app.use(sandboxRouter(deps));
  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found' });
  });

  const onError: ErrorRequestHandler = (err: { status?: number; type?: string; message?: string }, _req, res, _next) => {
    // body-parser errors carry their status (400 malformed JSON, 413 too large); anything else is ours.
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    res.status(status).json({ error: status === 500 ? 'internal_error' : 'invalid_request', message: err.message });
  };
  app.use(onError);
  return app;
}
