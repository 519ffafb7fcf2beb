import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createExportPool, type ExportPool } from '@mm/db/payments';
import { accessLog, createLogger, requestId } from '@mm/observability';
import { errorHandler } from '../http/error-handler.js';
import { setMerchantContext } from '../http/request-context.js';
import { transactionsExportRouter } from './transactions-export.js';

// The route against a database that cannot be reached: what happens before the first byte.
let server: Server;
let url: string;
let pool: ExportPool;

beforeAll(async () => {
  const logger = createLogger('test', 'silent');
  pool = createExportPool({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/nowhere', connectionTimeoutMs: 500 });
  const app = express();
  app.use(requestId);
  app.use(accessLog(logger));
  app.use((_req, res, next) => {
    setMerchantContext(res, { merchantId: '00000000-0000-4000-8000-000000000000' });
    next();
  });
  app.use(transactionsExportRouter({ pool, logger }));
  app.use(errorHandler(logger));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/transactions/export`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await pool.end();
});

describe('transactions export route', () => {
  it.each(['json', 'csv'])(
    'answers a %s export whose database cannot be reached before the first row with a plain 503 error',
    async (format) => {
      const res = await fetch(`${url}?date_from=2026-01-01&date_to=2026-01-31&format=${format}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-disposition')).toBeNull();
      expect(res.headers.get('retry-after')).toBe('2');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
    },
  );

  it('answers HEAD with the headers only, without querying', async () => {
    const res = await fetch(`${url}?date_from=2026-01-01&date_to=2026-01-31&format=csv`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="transactions_2026-01-01_2026-01-31.csv"',
    );
  });

  it('validates before anything else', async () => {
    const res = await fetch(`${url}?date_from=2026-01-01`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: unknown } }).error.details).toEqual([
      { field: 'date_to', issue: 'is required' },
    ]);
  });
});
