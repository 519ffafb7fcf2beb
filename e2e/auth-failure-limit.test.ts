import { randomBytes } from 'node:crypto';
import { fetchFrom, signedClient } from '@mm/testing';
import { expectError } from './support/contract.js';
import { startSystem, type System } from './support/system.js';

/**
 * Failed authentications are counted per client address in Redis (security review point 6): shared by
 * every gateway instance, the client address taken from X-Forwarded-For only behind TRUST_PROXY.
 */
const LIMIT = 3;
let sys: System;
/** A second instance on the same database and Redis, with the same limit. */
let otherUrl: string;
/** An instance behind one trusted proxy (TRUST_PROXY=true). */
let proxiedUrl: string;

beforeAll(async () => {
  sys = await startSystem({ gatewayEnv: { AUTH_FAILURE_LIMIT: String(LIMIT) } });
  otherUrl = (await sys.startExtraGateway({ AUTH_FAILURE_LIMIT: String(LIMIT) })).url;
  proxiedUrl = (await sys.startExtraGateway({ AUTH_FAILURE_LIMIT: String(LIMIT), TRUST_PROXY: 'true' })).url;
});
afterAll(async () => {
  await sys?.stop();
});

const unknownKey = () => `pk_${randomBytes(16).toString('hex')}`;
const BALANCES = '/api/v1/balances';

describe('failed authentications per client address', () => {
  it(`${LIMIT} failures spread over two instances refuse the address on both: 429 RATE_LIMITED with Retry-After`, async () => {
    const address = '127.0.0.21';
    const here = signedClient(sys.gatewayUrl, unknownKey(), 'sk_x', fetchFrom(address));
    const there = signedClient(otherUrl, unknownKey(), 'sk_x', fetchFrom(address));
    expectError(await here('GET', BALANCES), 401, 'INVALID_API_KEY');
    expectError(await there('GET', BALANCES), 401, 'INVALID_API_KEY');
    expectError(await here('GET', BALANCES), 401, 'INVALID_API_KEY');
    for (const api of [here, there]) {
      const refused = await api('GET', BALANCES);
      expectError(refused, 429, 'RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The merchant's correctly signed requests pass from there once its key is in memory (here after a
    // request from another address); a wrong secret is refused.
    expect((await sys.api('GET', BALANCES)).status).toBe(200);
    const merchantThere = signedClient(sys.gatewayUrl, sys.merchant.apiKey, sys.merchant.apiSecret, fetchFrom(address));
    expect((await merchantThere('GET', BALANCES)).status).toBe(200);
    expectError(await merchantThere('GET', BALANCES, undefined, { secretOverride: 'sk_wrong' }), 429, 'RATE_LIMITED');
  });

  it('without TRUST_PROXY, X-Forwarded-For does not change the address counted', async () => {
    const api = signedClient(sys.gatewayUrl, unknownKey(), 'sk_x', fetchFrom('127.0.0.22'));
    for (let i = 0; i < LIMIT; i++)
      expect(
        (await api('GET', BALANCES, undefined, { extraHeaders: { 'X-Forwarded-For': `198.51.100.${i}` } })).status,
      ).toBe(401);
    expect(
      (await api('GET', BALANCES, undefined, { extraHeaders: { 'X-Forwarded-For': '198.51.100.99' } })).status,
    ).toBe(429);
  });

  it('behind TRUST_PROXY=true, each client the proxy names is counted apart, and the proxy itself is not refused', async () => {
    const proxy = signedClient(proxiedUrl, unknownKey(), 'sk_x', fetchFrom('127.0.0.23'));
    const from = (client: string) => ({ extraHeaders: { 'X-Forwarded-For': client } });
    for (let i = 0; i < LIMIT; i++)
      expect((await proxy('GET', BALANCES, undefined, from('203.0.113.5'))).status).toBe(401);
    expect((await proxy('GET', BALANCES, undefined, from('203.0.113.5'))).status).toBe(429);
    // What a client puts before the proxy's entry is not believed: only the last hop's word counts.
    expect((await proxy('GET', BALANCES, undefined, from('192.0.2.1, 203.0.113.5'))).status).toBe(429);
    expect((await proxy('GET', BALANCES, undefined, from('203.0.113.6'))).status).toBe(401);
    const merchant = signedClient(proxiedUrl, sys.merchant.apiKey, sys.merchant.apiSecret, fetchFrom('127.0.0.23'));
    expect((await merchant('GET', BALANCES, undefined, from('203.0.113.7'))).status).toBe(200);
  });
});
