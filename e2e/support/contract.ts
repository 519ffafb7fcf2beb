import { request } from 'node:http';
import { createApiKey, createMerchant } from '@mm/db/merchants';
import { signPayload } from '@mm/domain';
import { waitFor, signedClient, type ApiResponse } from '@mm/testing';
import type { System } from './system.js';

/** The documented error body (decisions 3): `{error: {code, message, details?, request_id}}`. */
export function expectError(
  res: ApiResponse,
  status: number,
  code: string,
): { code: string; message: string; details?: { field: string; issue: string }[]; request_id: string } {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(Object.keys(res.body)).toEqual(['error']);
  const error = res.body.error;
  expect(Object.keys(error).every((k) => ['code', 'message', 'details', 'request_id'].includes(k))).toBe(true);
  expect(error.message).toEqual(expect.any(String));
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.request_id).toEqual(expect.any(String));
  expect(error.request_id).toBe(res.headers.get('x-request-id'));
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return error;
}

/** 400 VALIDATION_ERROR whose details are `{field, issue}` items and name `field`. */
export function expectValidationError(res: ApiResponse, field: string): { field: string; issue: string }[] {
  const error = expectError(res, 400, 'VALIDATION_ERROR');
  expect(Array.isArray(error.details)).toBe(true);
  const details = error.details ?? [];
  for (const d of details) {
    expect(Object.keys(d).sort()).toEqual(['field', 'issue']);
    expect(d.issue).toEqual(expect.any(String));
  }
  expect(details.map((d) => d.field)).toContain(field);
  return details;
}

/** Transactions and outbox rows: what a rejected request must not have written. */
export async function rowCounts(sys: System): Promise<{ transactions: number; outbox: number }> {
  // Accepted cash-ins of earlier tests may still be moving to PENDING (which writes an expiry outbox row):
  // let them settle so that a difference can only come from the request under test.
  await waitFor(
    async () => (await sys.db.transaction.count({ where: { status: { in: ['CREATED', 'INITIATED'] } } })) === 0,
    {
      what: 'accepted cash-ins acknowledged',
    },
  );
  return { transactions: await sys.db.transaction.count(), outbox: await sys.db.outbox.count() };
}

/** Runs `send` and checks that it wrote no transaction and no outbox row. */
export async function withoutWrites(sys: System, send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await rowCounts(sys);
  const res = await send();
  expect(await rowCounts(sys)).toEqual(before);
  return res;
}

/**
 * The gateway keeps API keys and merchant statuses in memory and drops them when PostgreSQL notifies a
 * change, milliseconds after its commit: repeats `send` (deadline 5 s, far under the cache's 60 s TTL,
 * so only the notification can make it pass) until it answers `status`.
 */
export async function onceHeard(send: () => Promise<ApiResponse>, status: number): Promise<ApiResponse> {
  return waitFor(
    async () => {
      const res = await send();
      return res.status === status ? res : undefined;
    },
    { timeoutMs: 5000, what: `the gateway to answer ${status} once it heard the change` },
  );
}

let seq = 0;
/** A merchant_order_id no other test uses. */
export const newOrderId = (prefix = 'order') => `${prefix}-${Date.now()}-${++seq}`;

/** Unix time in seconds, as the X-Service-Timestamp string, `offsetS` from now. */
export const unixTime = (offsetS = 0) => String(Math.floor(Date.now() / 1000) + offsetS);

/** Headers signed over `signedText` (which the caller may then not send). */
export function signedHeaders(
  apiKey: string,
  apiSecret: string,
  signedText: string | Buffer,
  timestamp = unixTime(),
): Record<string, string> {
  return {
    'X-Service-Key': apiKey,
    'X-Service-Timestamp': timestamp,
    'X-Service-Signature': signPayload(apiSecret, timestamp, signedText),
  };
}

/** Another merchant of the same system, with its own key and signed client. */
export async function anotherMerchant(sys: System, name = 'Autre Boutique') {
  const merchant = await createMerchant(sys.db, { name, webhookUrl: null });
  const key = await createApiKey(sys.db, sys.box, merchant.id);
  return { id: merchant.id, ...key, api: signedClient(sys.gatewayUrl, key.apiKey, key.apiSecret) };
}

/**
 * A request sent with exactly these headers and body bytes (fetch would add a Content-Type of its own
 * to a string body): for "no Content-Type at all".
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Buffer,
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      { method, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: h, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
