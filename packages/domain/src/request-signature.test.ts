import { createHmac } from 'node:crypto';
import {
  requestSignatureMatches,
  requestSigningText,
  signatureMatches,
  signPayload,
  signRequest,
  timestampWithinTolerance,
} from './request-signature.js';

const secret = 'sk_test_0123456789abcdef';
const timestamp = '1767225600';
const body = '{"merchant_order_id":"order-1","amount":5000,"customer_msisdn":"+2250707000001","motif":"Café"}';

describe('request signature (decisions 2)', () => {
  it('is the lowercase hex HMAC-SHA256 of timestamp + raw body bytes', () => {
    const expected = createHmac('sha256', secret)
      .update(Buffer.concat([Buffer.from(timestamp), Buffer.from(body, 'utf8')]))
      .digest('hex');
    expect(signPayload(secret, timestamp, body)).toBe(expected);
    expect(signPayload(secret, timestamp, Buffer.from(body, 'utf8'))).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches a fixed vector (HMAC-SHA256 of "key", "The quick brown fox jumps over the lazy dog")', () => {
    // The well-known RFC-style vector, split between timestamp and body.
    expect(signPayload('key', 'The quick brown fox ', 'jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });

  it('verifies the right signature only', () => {
    const sig = signPayload(secret, timestamp, body);
    expect(signatureMatches(secret, timestamp, body, sig)).toBe(true);
    expect(signatureMatches(secret, timestamp, Buffer.from(body), sig)).toBe(true);
    expect(signatureMatches('another-secret', timestamp, body, sig)).toBe(false);
    expect(signatureMatches(secret, String(Number(timestamp) + 1), body, sig)).toBe(false);
    expect(signatureMatches(secret, timestamp, body.replace('5000', '5001'), sig)).toBe(false);
    expect(signatureMatches(secret, timestamp, body, sig.slice(0, -1))).toBe(false);
    expect(signatureMatches(secret, timestamp, body, '')).toBe(false);
    expect(signatureMatches(secret, timestamp, body, `${sig}00`)).toBe(false);
  });

  it('verifies the exact bytes: the same JSON re-serialised differently does not match', () => {
    const sig = signPayload(secret, timestamp, body);
    const reserialised = JSON.stringify(JSON.parse(body), null, 1);
    expect(signatureMatches(secret, timestamp, reserialised, sig)).toBe(false);
  });
});

describe('X-Service-Request-Signature: timestamp, method and request target bound to the body', () => {
  // Computed with openssl, as docs/api.md shows: printf '<ts>\n<METHOD>\n<target>\n<body>' | openssl dgst -sha256 -hmac <secret> -hex
  it.each([
    ['GET', '/api/v1/balances', '', 'ad543e8489608f8d665e9ae3bf017105d09fc73e42fd71e559003a7db3e6a48a'],
    [
      'POST',
      '/api/v1/payments/cashin',
      '{"amount":5000}',
      '3b6ce94e163ef9244b808f3845450328c2924b17dba2731d0ed5cd49f26a9cc7',
    ],
    [
      'GET',
      '/api/v1/transactions/export?date_from=2026-01-01&date_to=2026-01-31&format=csv',
      '',
      'a008fcbb7827f510ea58b1c20ce8b5f651274b44269ea8ab70b0743fa86b8ee7',
    ],
  ])('%s %s matches the fixed vector', (method, target, text, expected) => {
    expect(requestSigningText(timestamp, method, target)).toBe(`${timestamp}\n${method}\n${target}\n`);
    expect(signRequest(secret, timestamp, method, target, text)).toBe(expected);
    expect(signRequest(secret, timestamp, method, target, Buffer.from(text))).toBe(expected);
  });

  it('differs from X-Service-Signature, and changes with the method, the target, the query, the timestamp or the body', () => {
    const sig = signRequest(secret, timestamp, 'POST', '/api/v1/refunds', body);
    expect(sig).not.toBe(signPayload(secret, timestamp, body));
    expect(requestSignatureMatches(secret, timestamp, 'POST', '/api/v1/refunds', body, sig)).toBe(true);
    expect(requestSignatureMatches(secret, timestamp, 'POST', '/api/v1/payments/cashin', body, sig)).toBe(false);
    expect(requestSignatureMatches(secret, timestamp, 'PUT', '/api/v1/refunds', body, sig)).toBe(false);
    expect(requestSignatureMatches(secret, timestamp, 'POST', '/api/v1/refunds?x=1', body, sig)).toBe(false);
    expect(requestSignatureMatches(secret, String(Number(timestamp) + 1), 'POST', '/api/v1/refunds', body, sig)).toBe(
      false,
    );
    expect(requestSignatureMatches(secret, timestamp, 'POST', '/api/v1/refunds', `${body} `, sig)).toBe(false);
    expect(requestSignatureMatches('another-secret', timestamp, 'POST', '/api/v1/refunds', body, sig)).toBe(false);
    expect(requestSignatureMatches(secret, timestamp, 'POST', '/api/v1/refunds', body, sig.toUpperCase())).toBe(false);
    expect(requestSignatureMatches(secret, timestamp, 'POST', '/api/v1/refunds', body, '')).toBe(false);
  });

  it('cannot be shifted between its parts: a line break separates each', () => {
    const a = signRequest(secret, timestamp, 'GET', '/api/v1/balances', '');
    expect(signRequest(secret, timestamp, 'GET', '/api/v1/balance', 's')).not.toBe(a);
    expect(signRequest(secret, timestamp, 'GE', 'T/api/v1/balances', '')).not.toBe(a);
  });
});

describe('timestamp tolerance (decisions 2: |now - timestamp| <= 300 s)', () => {
  const ts = 1_767_225_600;
  const at = (seconds: number, extraMs = 0) => (ts + seconds) * 1000 + extraMs;

  it.each([
    [0, true],
    [300, true],
    [-300, true],
    [301, false],
    [-301, false],
  ])('now = timestamp %+d s -> %s', (offset, ok) => {
    expect(timestampWithinTolerance(String(ts), at(offset), 300)).toBe(ok);
  });

  it('counts whole seconds of the clock: 300.999 s late is still 300', () => {
    expect(timestampWithinTolerance(String(ts), at(300, 999), 300)).toBe(true);
    expect(timestampWithinTolerance(String(ts), at(301, 0), 300)).toBe(false);
  });

  it.each(['', 'abc', '1767225600.5', '-1767225600', ' 1767225600', '1e9', '1767225600000000'])(
    'rejects the malformed timestamp %j',
    (bad) => {
      expect(timestampWithinTolerance(bad, at(0), 300)).toBe(false);
    },
  );
});
