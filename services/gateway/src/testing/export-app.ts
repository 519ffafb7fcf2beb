/**
 * For e2e tests only, until app.ts mounts the export router: GET /api/v1/transactions/export served by
 * a local app assembled from the gateway's own middleware (request id, pino-http, raw body,
 * authentication, error handler) on an export pool of its own. Once app.ts mounts the router, the
 * tests use the real gateway and this file goes.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pinoHttp } from 'pino-http';
import type { ActiveKey } from '@mm/db';
import { createExportPool } from '@mm/db/export-transactions';
import { createLogger } from '@mm/observability';
import { authenticate } from '../http/authenticate.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import type { ReplayGuard } from '../http/replay-guard.js';
import { requestId } from '../http/request-id.js';
import { transactionsExportRouter } from '../routes/transactions-export.js';

export async function startExportApp(o: { databaseUrl: string; findKey(apiKey: string): Promise<ActiveKey | null>; logLevel?: string }) {
  const logger = createLogger('export-app', o.logLevel ?? 'silent');
  const pool = createExportPool({ databaseUrl: o.databaseUrl });
  const app = express();
  app.use(requestId);
  app.use(pinoHttp({ logger, genReqId: (_req, res) => (res as express.Response).locals.requestId as string }));
  const api = express.Router();
  api.use(express.raw({ type: () => true, limit: '64kb' }));
  // GET requests never reach the replay guard.
  const replayGuard = { firstUse: async () => true } as unknown as ReplayGuard;
  api.use(authenticate({ findKey: o.findKey, replayGuard, toleranceS: 300, now: Date.now }));
  api.use(transactionsExportRouter({ pool }));
  api.use(notFound);
  app.use('/api/v1', api);
  app.use(notFound);
  app.use(errorHandler(logger));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}
