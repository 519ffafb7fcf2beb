import { createApiKey, revokeApiKey } from '@mm/db/merchants';
import { signedClient } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import {
  anotherMerchant,
  expectError,
  newOrderId,
  onceHeard,
  rawRequest,
  signedHeaders,
  unixTime,
  withoutWrites,
} from './support/contract.js';

let sys: System;

beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys.stop();
});

// Numbers ending 06 never confirm: an accepted cash-in stays PENDING and writes nothing more.
const cashinBody = () => ({ merchant_order_id: newOrderId('auth'), amount: 5000, customer_msisdn: CI_NUMBER('06') });
const CASHIN = '/api/v1/payments/cashin';

describe('authentication (decisions 2)', () => {
  it.each([
    ['all three headers', {}],
    ['X-Service-Key', { without: 'X-Service-Key' }],
    ['X-Service-Timestamp', { without: 'X-Service-Timestamp' }],
    ['X-Service-Signature', { without: 'X-Service-Signature' }],
  ])(
    'answers 401 AUTHENTICATION_REQUIRED without %s and writes nothing',
    async (_what, { without }: { without?: string }) => {
      const body = cashinBody();
      const headers = without ? signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, JSON.stringify(body)) : {};
      if (without) delete headers[without];
      const res = await withoutWrites(sys, () => sys.api('POST', CASHIN, body, { headers }));
      expectError(res, 401, 'AUTHENTICATION_REQUIRED');
    },
  );

  it('answers 401 AUTHENTICATION_REQUIRED on a GET without headers too', async () => {
    expectError(await sys.api('GET', '/api/v1/balances', undefined, { headers: {} }), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('answers 401 INVALID_API_KEY for an unknown key', async () => {
    const body = cashinBody();
    const res = await withoutWrites(sys, () =>
      sys.api('POST', CASHIN, body, {
        headers: signedHeaders('pk_unknown0000000000000000000000', sys.merchant.apiSecret, JSON.stringify(body)),
      }),
    );
    expectError(res, 401, 'INVALID_API_KEY');
  });

  it("answers 401 INVALID_API_KEY for a revoked key while the merchant's other key keeps working", async () => {
    const second = await createApiKey(sys.db, sys.box, sys.merchant.id);
    const api = signedClient(sys.gatewayUrl, second.apiKey, second.apiSecret);
    expect((await api('GET', '/api/v1/balances')).status).toBe(200);
    expect(await revokeApiKey(sys.db, second.apiKey)).toBe(true);
    expectError(await onceHeard(() => api('GET', '/api/v1/balances'), 401), 401, 'INVALID_API_KEY');
    expectError(await withoutWrites(sys, () => api('POST', CASHIN, cashinBody())), 401, 'INVALID_API_KEY');
    expect((await sys.api('GET', '/api/v1/balances')).status).toBe(200);
  });

  it('answers 401 INVALID_SIGNATURE when signed with the wrong secret', async () => {
    const res = await withoutWrites(sys, () =>
      sys.api('POST', CASHIN, cashinBody(), { secretOverride: 'sk_not_the_secret' }),
    );
    expectError(res, 401, 'INVALID_SIGNATURE');
    expectError(
      await sys.api('GET', '/api/v1/balances', undefined, { secretOverride: 'sk_not_the_secret' }),
      401,
      'INVALID_SIGNATURE',
    );
  });

  it('answers 401 INVALID_SIGNATURE when the body was altered after signing', async () => {
    const signed = cashinBody();
    const sent = { ...signed, amount: 500000 };
    const headers = signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, JSON.stringify(signed));
    const res = await withoutWrites(sys, () => sys.api('POST', CASHIN, sent, { headers }));
    expectError(res, 401, 'INVALID_SIGNATURE');
  });

  it('verifies the exact bytes sent: the same JSON re-serialised with other whitespace does not match', async () => {
    const body = cashinBody();
    const headers = signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, JSON.stringify(body));
    const res = await withoutWrites(sys, () => sys.api('POST', CASHIN, JSON.stringify(body, null, 2), { headers }));
    expectError(res, 401, 'INVALID_SIGNATURE');
  });

  it('answers 401 TIMESTAMP_OUT_OF_TOLERANCE for a timestamp 301 s old or 302 s ahead', async () => {
    // Ahead by 302, not 301: the server reads its clock a moment later, and crossing a second boundary
    // would bring 301 ahead back to 300 (inside the tolerance). Old timestamps only get older.
    for (const offset of [-301, 302]) {
      const res = await withoutWrites(sys, () =>
        sys.api('POST', CASHIN, cashinBody(), { timestamp: unixTime(offset) }),
      );
      expectError(res, 401, 'TIMESTAMP_OUT_OF_TOLERANCE');
    }
    expectError(
      await sys.api('GET', '/api/v1/balances', undefined, { timestamp: unixTime(-301) }),
      401,
      'TIMESTAMP_OUT_OF_TOLERANCE',
    );
  });

  it('accepts a timestamp 299 s old', async () => {
    expect((await sys.api('GET', '/api/v1/balances', undefined, { timestamp: unixTime(-299) })).status).toBe(200);
    const res = await sys.api('POST', CASHIN, cashinBody(), { timestamp: unixTime(-299) });
    expect(res.status).toBe(202);
  });

  it('answers 401 REQUEST_REPLAYED to the exact same signed POST sent a second time, which writes nothing', async () => {
    const body = cashinBody();
    const headers = signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, JSON.stringify(body));
    const first = await sys.api('POST', CASHIN, body, { headers: { ...headers } });
    expect(first.status).toBe(202);
    const replay = await withoutWrites(sys, () => sys.api('POST', CASHIN, body, { headers: { ...headers } }));
    expectError(replay, 401, 'REQUEST_REPLAYED');
  });

  it('rejects a replayed POST even when the first one was refused after authentication', async () => {
    const body = { ...cashinBody(), amount: 'not a number' };
    const headers = signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, JSON.stringify(body));
    expectError(await sys.api('POST', CASHIN, body, { headers: { ...headers } }), 400, 'VALIDATION_ERROR');
    expectError(await sys.api('POST', CASHIN, body, { headers: { ...headers } }), 401, 'REQUEST_REPLAYED');
  });

  it('lets the exact same signed GET be repeated', async () => {
    const headers = signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, '');
    for (let i = 0; i < 3; i++) {
      expect((await sys.api('GET', '/api/v1/balances', undefined, { headers: { ...headers } })).status).toBe(200);
    }
  });

  it('answers 403 MERCHANT_DISABLED to a disabled merchant with a valid signature, and writes nothing', async () => {
    const other = await anotherMerchant(sys, 'Boutique Fermée');
    expect((await other.api('GET', '/api/v1/balances')).status).toBe(200);
    await sys.db.merchant.update({ where: { id: other.id }, data: { status: 'DISABLED' } });
    expectError(await onceHeard(() => other.api('GET', '/api/v1/balances'), 403), 403, 'MERCHANT_DISABLED');
    const res = await withoutWrites(sys, () => other.api('POST', CASHIN, cashinBody()));
    expectError(res, 403, 'MERCHANT_DISABLED');
  });

  it("answers 404 NOT_FOUND to another merchant's transaction id, exactly like an unknown uuid or a non-uuid id", async () => {
    const other = await anotherMerchant(sys);
    const created = await other.api('POST', CASHIN, cashinBody());
    expect(created.status).toBe(202);
    const theirs: string = created.body.data.transaction_id;
    expect((await other.api('GET', `/api/v1/payments/${theirs}`)).status).toBe(200);

    const answers = [];
    for (const id of [theirs, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await sys.api('GET', `/api/v1/payments/${id}`);
      const error = expectError(res, 404, 'NOT_FOUND');
      answers.push({ status: res.status, body: { ...error, request_id: '(per request)' } });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});

describe('request errors and limits (decisions 3, 10)', () => {
  it('answers 400 INVALID_JSON to a body that is not JSON, and writes nothing', async () => {
    for (const text of ['{"merchant_order_id": "x", "amount": ', 'amount=5000', "{'amount': 5000}"]) {
      const res = await withoutWrites(sys, () => sys.api('POST', CASHIN, text));
      expectError(res, 400, 'INVALID_JSON');
    }
  });

  it('answers 400 INVALID_JSON to an empty body declared as application/json', async () => {
    // The signature covers only timestamp + body: an odd timestamp keeps this empty body from colliding with
    // another bodiless non-GET request of this file signed in the same second (which would be a replay).
    const headers = {
      ...signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, '', unixTime(200)),
      'Content-Type': 'application/json',
    };
    const res = await withoutWrites(sys, () => rawRequest(sys.gatewayUrl, 'POST', CASHIN, headers, ''));
    expectError(res, 400, 'INVALID_JSON');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a POST whose Content-Type is not application/json', async () => {
    const body = cashinBody();
    const res = await withoutWrites(sys, () => sys.api('POST', CASHIN, body, { contentType: 'text/plain' }));
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const form = await withoutWrites(sys, () =>
      sys.api('POST', CASHIN, `merchant_order_id=${newOrderId()}&amount=5000`, {
        contentType: 'application/x-www-form-urlencoded',
      }),
    );
    expectError(form, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a POST with no Content-Type header at all', async () => {
    const text = JSON.stringify(cashinBody());
    const headers = signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, text);
    const res = await withoutWrites(sys, () => rawRequest(sys.gatewayUrl, 'POST', CASHIN, headers, text));
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await sys.api('POST', CASHIN, cashinBody(), { contentType: 'application/json; charset=utf-8' });
    expect(res.status).toBe(202);
  });

  it('answers 413 PAYLOAD_TOO_LARGE to a body over 64 KiB, and reads one of exactly 64 KiB', async () => {
    const padded = (size: number) => {
      const base = JSON.stringify({ ...cashinBody(), motif: '' });
      return base.replace('"motif":""', `"motif":"${'x'.repeat(size - base.length)}"`);
    };
    const over = padded(64 * 1024 + 1);
    expect(Buffer.byteLength(over)).toBe(65537);
    expectError(await withoutWrites(sys, () => sys.api('POST', CASHIN, over)), 413, 'PAYLOAD_TOO_LARGE');
    // At the limit the body is read, authenticated and validated: here the motif is too long.
    const at = padded(64 * 1024);
    expect(Buffer.byteLength(at)).toBe(65536);
    const res = await withoutWrites(sys, () => sys.api('POST', CASHIN, at));
    expectError(res, 400, 'VALIDATION_ERROR');
  });

  it('answers 404 NOT_FOUND in the error shape to an unknown route under /api/v1, and outside it', async () => {
    expectError(await sys.api('GET', '/api/v1/does-not-exist'), 404, 'NOT_FOUND');
    expectError(await sys.api('POST', '/api/v1/payments/cashin/extra', cashinBody()), 404, 'NOT_FOUND');
    expectError(
      await sys.api('DELETE', '/api/v1/payments/00000000-0000-4000-8000-000000000000', undefined, {
        timestamp: unixTime(-200),
      }),
      404,
      'NOT_FOUND',
    );
    expectError(await sys.api('PUT', '/api/v1/balances', {}), 404, 'NOT_FOUND');
    expectError(await sys.api('GET', '/api/v2/balances'), 404, 'NOT_FOUND');
  });

  it('puts an X-Request-Id on every response, keeps a sane caller id and replaces an unsafe one', async () => {
    const responses = [
      await sys.api('GET', '/api/v1/balances'),
      await sys.api('POST', CASHIN, cashinBody()),
      await sys.api('GET', '/api/v1/balances', undefined, { headers: {} }),
      await sys.api('POST', CASHIN, '{'),
      await sys.api('GET', '/api/v1/nope'),
      await sys.api('GET', '/nope'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 202, 401, 400, 404, 404]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]{1,100}$/);
    expect(new Set(ids).size).toBe(ids.length);

    const mine = await sys.api('GET', '/api/v1/balances', undefined, {
      headers: { ...signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, ''), 'X-Request-Id': 'shop-trace-42' },
    });
    expect(mine.headers.get('x-request-id')).toBe('shop-trace-42');
    const unsafe = await sys.api('GET', '/api/v1/nope', undefined, {
      headers: { ...signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, ''), 'X-Request-Id': 'bad id <script>' },
    });
    const error = expectError(unsafe, 404, 'NOT_FOUND');
    expect(error.request_id).not.toBe('bad id <script>');
  });

  it('never lets a stack trace or internal detail leave in an error', async () => {
    const res = await sys.api('POST', CASHIN, '{"amount": ');
    expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
    expect(res.text).not.toMatch(/SyntaxError|Unexpected token|position \d+/);
  });
});
