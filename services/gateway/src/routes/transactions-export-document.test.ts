/**
 * The API's export writes exactly the shared document (@mm/collections' ExportBody over @mm/db's cursor), the
 * one the merchant portal's statements download writes too (its statements.test.ts checks its side): the same
 * merchant and range give the same bytes from both.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { text } from 'node:stream/consumers';
import express from 'express';
import { csvLayout, ExportBody, jsonLayout } from '@mm/collections';
import { createDb, type Db } from '@mm/db';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createExportPool, streamTransactionExport, type ExportPool } from '@mm/db/payments';
import { accessLog, createLogger, requestId } from '@mm/observability';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { errorHandler } from '../http/error-handler.js';
import { setMerchantContext } from '../http/request-context.js';
import { transactionsExportRouter } from './transactions-export.js';

let database: TestDatabase;
let db: Db;
let pool: ExportPool;
let server: Server;
let url: string;
let merchantId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  merchantId = (await createMerchant(db, { name: 'Shop', webhookUrl: null })).id;
  const other = (await createMerchant(db, { name: 'Other', webhookUrl: null })).id;
  // Cells that need quoting or neutralising, a null, a cash-out, rows on both edges of the range, another merchant.
  for (const [owner, i, order, type, status, at] of [
    [merchantId, 1, '=HYPERLINK("x"),1', 'CASHIN', 'SUCCESS', '2026-03-01T00:00:00.000Z'],
    [merchantId, 2, 'plain', 'CASHOUT', 'FAILED', '2026-03-15T10:00:00.000Z'],
    [merchantId, 3, 'line\nbreak', 'CASHIN', 'PENDING', '2026-03-31T23:59:59.999Z'],
    [merchantId, 4, 'after', 'CASHIN', 'SUCCESS', '2026-04-01T00:00:00.000Z'],
    [other, 5, 'theirs', 'CASHIN', 'SUCCESS', '2026-03-10T00:00:00.000Z'],
  ] as const) {
    await db.$executeRaw`
      INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn,
        request_fingerprint, provider_reference, operator, failure_code, created_at, updated_at)
      VALUES (gen_random_uuid(), ${owner}::uuid, ${order}, ${type}, ${status}, ${1000 * i}, 'XOF', 'CI', '+2250707000001',
        'fp', ${`REF-${i}`}, 'ORANGE', ${status === 'FAILED' ? 'OPERATOR_REJECTED' : null}, ${new Date(at)}, ${new Date(at)})`;
  }
  pool = createExportPool({ databaseUrl: database.url, max: 2 });
  const logger = createLogger('test', 'silent');
  const app = express();
  app.use(requestId);
  app.use(accessLog(logger));
  app.use((_req, res, next) => {
    setMerchantContext(res, { merchantId });
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
  await db.$disconnect();
  await database.drop();
});

const shared = (format: 'csv' | 'json') => {
  const rows = streamTransactionExport(pool, {
    merchantId,
    from: new Date('2026-03-01T00:00:00Z'),
    until: new Date('2026-04-01T00:00:00Z'),
  });
  const body = new ExportBody(
    format === 'csv' ? csvLayout() : jsonLayout({ date_from: '2026-03-01', date_to: '2026-03-31' }),
  );
  rows.pipe(body);
  return text(body);
};

describe("the API's export document", () => {
  it.each(['csv', 'json'] as const)('is the shared %s document, byte for byte', async (format) => {
    const res = await fetch(`${url}?date_from=2026-03-01&date_to=2026-03-31&format=${format}`);
    expect(res.status).toBe(200);
    const bytes = await res.text();
    expect(bytes).toBe(await shared(format));
    // The range's three rows of the merchant, the formula neutralised and the cells quoted.
    if (format === 'csv') {
      expect(bytes.split('\r\n').filter((l) => l !== '')).toHaveLength(1 + 3);
      expect(bytes).toContain(`"'=HYPERLINK(""x""),1"`);
      expect(bytes).toContain('"line\nbreak"');
      expect(bytes).not.toContain('theirs');
    } else {
      expect((JSON.parse(bytes) as { meta: { count: number } }).meta.count).toBe(3);
    }
  });
});
