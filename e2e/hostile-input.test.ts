import {
  expectError,
  expectValidationError,
  newOrderId,
  rawRequest,
  signedHeaders,
  withoutWrites,
} from './support/contract.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * Inputs the chaos suite's fuzzing found answered 500 (or silently altered): each now gets its
 * documented 4xx and writes nothing.
 */
let sys: System;
beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys.stop();
});

const post = (path: string, body: string | Buffer, extra: Record<string, string> = {}) => {
  const headers = {
    ...signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, body),
    'Content-Type': 'application/json',
    ...extra,
  };
  return rawRequest(sys.gatewayUrl, 'POST', path, headers, body);
};
const cashin = (extra: Record<string, unknown>) =>
  JSON.stringify({
    merchant_order_id: newOrderId('hostile'),
    amount: 1000,
    customer_msisdn: CI_NUMBER('01'),
    ...extra,
  });

describe('hostile input', () => {
  it('a compressed body (Content-Encoding gzip) is refused before anything decompresses it, signed or not', async () => {
    const body = cashin({});
    const unsigned = await withoutWrites(sys, () =>
      rawRequest(
        sys.gatewayUrl,
        'POST',
        '/api/v1/payments/cashin',
        { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body,
      ),
    );
    expectError(unsigned, 400, 'VALIDATION_ERROR');
    expectError(
      await withoutWrites(sys, () => post('/api/v1/payments/cashin', body, { 'Content-Encoding': 'gzip' })),
      400,
      'VALIDATION_ERROR',
    );
  });

  it.each(['%', '%E0%A4%A', '%FF', '%C0%AF'])('a path id that cannot be percent-decoded (%s) is 404', async (id) => {
    const get = (path: string) =>
      rawRequest(sys.gatewayUrl, 'GET', path, signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, ''), '');
    expectError(await get(`/api/v1/payments/${id}`), 404, 'NOT_FOUND');
    expectError(await get(`/api/v1/refunds/${id}`), 404, 'NOT_FOUND');
  });

  it.each([
    '(00000000-0000-1000-8000-000000000000)',
    '[00000000-0000-1000-8000-000000000000]',
    '00000000:0000:1000:8000:000000000000',
  ])('a UUID spelled %s, which PostgreSQL refuses, is a validation error', async (spelling) => {
    expectValidationError(
      await withoutWrites(sys, () => post('/api/v1/refunds', JSON.stringify({ transaction_id: spelling }))),
      'transaction_id',
    );
    expectValidationError(
      await sys.api('GET', `/api/v1/webhook-events?transaction_id=${encodeURIComponent(spelling)}`),
      'transaction_id',
    );
  });

  it.each([
    ['NUL in motif', { motif: 'a\u0000b' }, 'motif'],
    ['NUL in a metadata value', { metadata: { note: '\u0000' } }, 'note'],
    ['NUL in a metadata key', { metadata: { 'k\u0000': 'v' } }, 'k\u0000'],
    ['a lone surrogate in a metadata value', { metadata: { note: '\ud800' } }, 'note'],
    ['a lone surrogate in motif', { motif: 'x\udc00' }, 'motif'],
  ])('%s is a validation error, not a 500 nor text altered in storage', async (_what, extra, field) => {
    expectValidationError(await withoutWrites(sys, () => post('/api/v1/payments/cashin', cashin(extra))), field);
  });

  it('a surrogate pair (an emoji) is text like any other', async () => {
    // 55: waits for a person, so it writes nothing more while the next tests count rows.
    const res = await post(
      '/api/v1/payments/cashin',
      cashin({ motif: 'merci \ud83d\ude00', customer_msisdn: CI_NUMBER('55') }),
    );
    expect(res.status).toBe(202);
  });

  it('invalid UTF-8 bytes are invalid JSON, never repaired into U+FFFD', async () => {
    for (const bytes of [[0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      const text = cashin({ motif: '@' });
      const body = Buffer.concat([
        Buffer.from(text.slice(0, text.indexOf('@'))),
        Buffer.from(bytes),
        Buffer.from(text.slice(text.indexOf('@') + 1)),
      ]);
      expectError(await withoutWrites(sys, () => post('/api/v1/payments/cashin', body)), 400, 'INVALID_JSON');
    }
  });
});
