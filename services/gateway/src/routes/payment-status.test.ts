import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { signPayload } from '@mm/domain';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { startApiApp } from '../test-support/api-app.js';

/**
 * The status read (GET /api/v1/payments/{id}) as a merchant sees it, to the header: it is mounted on
 * the app itself, ahead of the routers, and must answer exactly what the API router answered.
 */
let app: Awaited<ReturnType<typeof startApiApp>>;
let id: string;
let othersId: string;

async function insert(merchantId: string): Promise<string> {
  const txId = randomUUID();
  await app.db.$executeRawUnsafe(
    `INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn, request_fingerprint,
       provider_reference, provider_tx_id, provider_state, provider_txn_status, refunded_amount, refund_reserved_amount, completed_at, customer_action, operator)
     VALUES ($1::uuid, $2::uuid, 'order-1', 'CASHIN', 'SUCCESS', 2500, 'XOF', 'CI', '+2250707000001', 'fp', $3, 'tx-9', 'OK', '200', 0, 0,
       '2026-11-27T05:00:00.123Z', '{"type":"NONE"}'::jsonb, 'SIMULATOR')`,
    txId,
    merchantId,
    `REF-${txId}`,
  );
  return txId;
}

interface Raw {
  status: number;
  headerNames: string[];
  headers: Record<string, string>;
  body: string;
}

/** One request on its own connection (Connection: close), with the headers as they came on the wire (names, order). */
function send(method: string, path: string, signed = true): Promise<Raw> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers = signed
    ? {
        'X-Service-Key': app.key.apiKey,
        'X-Service-Timestamp': timestamp,
        'X-Service-Signature': signPayload(app.key.apiSecret, timestamp, ''),
        'X-Request-Id': 'req-status-1',
      }
    : { 'X-Request-Id': 'req-status-1' };
  return new Promise((resolve, reject) => {
    const req = request(`${app.url}${path}`, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => {
        const names = res.rawHeaders.filter((_, i) => i % 2 === 0);
        resolve({ status: res.statusCode!, headerNames: names, headers: res.headers as Record<string, string>, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  app = await startApiApp();
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(app.db, s);
  id = await insert(app.merchantId);
  othersId = await insert((await createMerchant(app.db, { name: 'Other', webhookUrl: null })).id);
});
afterAll(async () => {
  await app?.stop();
});

const STATUS_BODY = () => ({
  data: {
    transaction_id: id,
    merchant_order_id: 'order-1',
    type: 'CASHIN',
    status: 'SUCCESS',
    amount: 2500,
    currency: 'XOF',
    country_code: 'CI',
    payment_method: 'USSD_PUSH',
    provider_reference: `REF-${id}`,
    provider_tx_id: 'tx-9',
    provider_session_id: null,
    provider_state: 'OK',
    provider_txn_status: '200',
    failure_code: null,
    failure_reason: null,
    refunded_amount: 0,
    completed_at: '2026-11-27T05:00:00.123Z',
    operator: 'SIMULATOR',
    customer_action: { type: 'NONE' },
    payment_link_id: null,
  },
});

describe('GET /api/v1/payments/{id}', () => {
  it("answers the transaction with the API's headers, in the order they always came", async () => {
    const res = await send('GET', `/api/v1/payments/${id}`);
    expect(res.status).toBe(200);
    expect(res.headerNames).toEqual([
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Content-Type',
      'Content-Length',
      'ETag',
      'Date',
      'Connection',
    ]);
    expect(res.headers).toMatchObject({
      'x-request-id': 'req-status-1',
      'ratelimit-limit': '1000',
      'ratelimit-remaining': expect.stringMatching(/^\d+$/),
      'ratelimit-reset': '1',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(res.body)),
      etag: expect.stringMatching(/^W\/"[0-9a-f]+-[\w+/=-]+"$/),
    });
    // The body's bytes, not only its fields: the key order is the interface's.
    expect(res.body).toBe(JSON.stringify(STATUS_BODY()));
  });

  it('answers HEAD with the same headers and no body', async () => {
    const res = await send('HEAD', `/api/v1/payments/${id}`);
    expect(res.status).toBe(200);
    expect(res.headerNames).toEqual([
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Content-Type',
      'Content-Length',
      'ETag',
      'Date',
      'Connection',
    ]);
    expect(res.body).toBe('');
  });

  it('answers a trailing slash like the path without it', async () => {
    const res = await send('GET', `/api/v1/payments/${id}/`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual(STATUS_BODY());
  });

  it.each([
    ["another merchant's transaction", () => `/api/v1/payments/${othersId}`, 'no transaction with this id'],
    ['an unknown id', () => `/api/v1/payments/${randomUUID()}`, 'no transaction with this id'],
    ['an id that is no UUID', () => '/api/v1/payments/cashout', 'no transaction with this id'],
    ['an id that does not percent-decode', () => '/api/v1/payments/%E0%A4%A', 'no such resource'],
  ])('answers %s 404 NOT_FOUND, like any other', async (_what, path, message) => {
    const res = await send('GET', path());
    expect(res.status).toBe(404);
    expect(res.headerNames).toEqual([
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Content-Type',
      'Content-Length',
      'ETag',
      'Date',
      'Connection',
    ]);
    expect(res.body).toBe(JSON.stringify({ error: { code: 'NOT_FOUND', message, request_id: 'req-status-1' } }));
  });

  it.each([
    ['a read', () => `/api/v1/payments/${id}`],
    ['an id that does not percent-decode', () => '/api/v1/payments/%E0%A4%A'],
  ])('refuses %s unsigned 401 before reading anything, without RateLimit headers', async (_what, path) => {
    const res = await send('GET', path(), false);
    expect(res.status).toBe(401);
    expect(res.headerNames).toEqual(['X-Request-Id', 'Content-Type', 'Content-Length', 'ETag', 'Date', 'Connection']);
    expect(JSON.parse(res.body)).toEqual({
      error: {
        code: 'AUTHENTICATION_REQUIRED',
        message: 'X-Service-Key, X-Service-Timestamp and X-Service-Signature are required',
        request_id: 'req-status-1',
      },
    });
  });

  it('answers OPTIONS as the API router does: authentication first', async () => {
    const res = await send('OPTIONS', `/api/v1/payments/${id}`, false);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.code).toBe('AUTHENTICATION_REQUIRED');
  });

  it('is counted under its route template', async () => {
    await send('GET', `/api/v1/payments/${id}`);
    const text = await app.metrics.metrics();
    expect(text).toMatch(
      /mm_http_request_duration_seconds_count\{service="gateway",method="GET",route="\/api\/v1\/payments\/:id",status="200"\} \d+/,
    );
  });
});
