import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { signRequest } from '@mm/domain';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import { expectError, newOrderId, signedHeaders, unixTime, withoutWrites } from './support/contract.js';

/**
 * X-Service-Request-Signature (security review point 11): optional, checked when present. It binds the
 * signature to the method and the request target, so a captured one cannot be replayed onto another
 * request; without it the interface works as it always did (curl included).
 */
let sys: System;
beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys?.stop();
});

/** The three headers plus X-Service-Request-Signature over `method` and `target` (defaults: the request's own). */
function headersFor(
  method: string,
  target: string,
  body = '',
  o: { secret?: string; timestamp?: string } = {},
): Record<string, string> {
  const timestamp = o.timestamp ?? unixTime();
  return {
    ...signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, body, timestamp),
    'X-Service-Request-Signature': signRequest(o.secret ?? sys.merchant.apiSecret, timestamp, method, target, body),
  };
}
const send = (method: string, target: string, headers: Record<string, string>, body?: string) =>
  sys.api(method, target, body, { headers });
const cashinBody = () =>
  JSON.stringify({ merchant_order_id: newOrderId('reqsig'), amount: 5000, customer_msisdn: CI_NUMBER('06') });
const EXPORT = `/api/v1/transactions/export?date_from=2026-01-01&date_to=2026-01-31`;

describe('X-Service-Request-Signature', () => {
  it('accepts a correct one on a GET, a GET with a query, and a POST', async () => {
    expect((await send('GET', '/api/v1/balances', headersFor('GET', '/api/v1/balances'))).status).toBe(200);
    expect((await send('GET', EXPORT, headersFor('GET', EXPORT))).status).toBe(200);
    const body = cashinBody();
    expect(
      (await send('POST', '/api/v1/payments/cashin', headersFor('POST', '/api/v1/payments/cashin', body), body)).status,
    ).toBe(202);
  });

  it('refuses a wrong one with 401 INVALID_SIGNATURE, X-Service-Signature being right, and writes nothing', async () => {
    const wrong = headersFor('GET', '/api/v1/balances', '', { secret: 'sk_not_the_secret' });
    expectError(await send('GET', '/api/v1/balances', wrong), 401, 'INVALID_SIGNATURE');
    for (const value of [
      '',
      'x',
      headersFor('GET', '/api/v1/balances')['X-Service-Request-Signature']!.toUpperCase(),
    ]) {
      expectError(
        await send('GET', '/api/v1/balances', {
          ...headersFor('GET', '/api/v1/balances'),
          'X-Service-Request-Signature': value,
        }),
        401,
        'INVALID_SIGNATURE',
      );
    }
    const body = cashinBody();
    const res = await withoutWrites(sys, () =>
      send(
        'POST',
        '/api/v1/payments/cashin',
        headersFor('POST', '/api/v1/payments/cashin', body, { secret: 'sk_not_the_secret' }),
        body,
      ),
    );
    expectError(res, 401, 'INVALID_SIGNATURE');
  });

  it('refuses one replayed onto another path, query or method, which the body signature alone lets through', async () => {
    const balances = headersFor('GET', '/api/v1/balances');
    expectError(await send('GET', '/api/v1/webhook-events', balances), 401, 'INVALID_SIGNATURE');
    expectError(await send('GET', EXPORT, balances), 401, 'INVALID_SIGNATURE');
    const exportJan = headersFor('GET', EXPORT);
    expectError(await send('GET', EXPORT.replace('2026-01-31', '2026-12-31'), exportJan), 401, 'INVALID_SIGNATURE');
    expectError(await send('GET', `${EXPORT}&format=csv`, exportJan), 401, 'INVALID_SIGNATURE');

    // The risk it answers: the same captured GET signature without the header reads anything for 300 s.
    const { 'X-Service-Request-Signature': _dropped, ...bodyOnly } = balances;
    expect((await send('GET', '/api/v1/webhook-events', bodyOnly)).status).toBe(200);
    expect((await send('GET', EXPORT, bodyOnly)).status).toBe(200);

    // A POST signed for /refunds sent to /payments/cashin with the same body.
    const body = cashinBody();
    const res = await withoutWrites(sys, () =>
      send('POST', '/api/v1/payments/cashin', headersFor('POST', '/api/v1/refunds', body), body),
    );
    expectError(res, 401, 'INVALID_SIGNATURE');
    expectError(
      await send('POST', '/api/v1/balances', headersFor('GET', '/api/v1/balances')),
      401,
      'INVALID_SIGNATURE',
    );
  });

  it('absent: the request is authenticated as before', async () => {
    expect((await sys.api('GET', '/api/v1/balances')).status).toBe(200);
    expect((await sys.api('POST', '/api/v1/payments/cashin', cashinBody())).status).toBe(202);
  });
});

describe('a merchant using curl and openssl, as the README shows', () => {
  const sh = promisify(execFile);
  const run = async (script: string) => {
    const env = { ...process.env, BASE: sys.gatewayUrl, KEY: sys.merchant.apiKey, SECRET: sys.merchant.apiSecret };
    const { stdout } = await sh('sh', ['-c', `set -e\n${script}`], { env });
    const [status, ...rest] = stdout.trim().split('\n').reverse();
    return { status: Number(status), body: rest.reverse().join('\n') };
  };

  it('without X-Service-Request-Signature: a GET and a cash-in work', async () => {
    const get =
      await run(`TS=$(date +%s); SIG=$(printf '%s' "$TS" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')
curl -s -w '\\n%{http_code}' "$BASE/api/v1/balances" -H "X-Service-Key: $KEY" -H "X-Service-Timestamp: $TS" -H "X-Service-Signature: $SIG"`);
    expect(get.status).toBe(200);
    expect(JSON.parse(get.body).data.length).toBeGreaterThan(0);
    const post =
      await run(`BODY='{"merchant_order_id":"${newOrderId('curl')}","amount":5000,"customer_msisdn":"${CI_NUMBER('06')}"}'
TS=$(date +%s); SIG=$(printf '%s%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')
curl -s -w '\\n%{http_code}' -X POST "$BASE/api/v1/payments/cashin" -H 'Content-Type: application/json' \\
  -H "X-Service-Key: $KEY" -H "X-Service-Timestamp: $TS" -H "X-Service-Signature: $SIG" -d "$BODY"`);
    expect(post.status).toBe(202);
  });

  it('with X-Service-Request-Signature computed as docs/api.md says: accepted, and refused on another path', async () => {
    const script = (sent: string) => `P='/api/v1/transactions/export?date_from=2026-01-01&date_to=2026-01-31'
TS=$(date +%s); SIG=$(printf '%s' "$TS" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')
RSIG=$(printf '%s\\nGET\\n%s\\n' "$TS" "$P" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')
curl -s -w '\\n%{http_code}' "$BASE${sent}" -H "X-Service-Key: $KEY" -H "X-Service-Timestamp: $TS" -H "X-Service-Signature: $SIG" -H "X-Service-Request-Signature: $RSIG"`;
    expect((await run(script('$P'))).status).toBe(200);
    expect((await run(script('/api/v1/webhook-events'))).status).toBe(401);
  });
});
