import { randomBytes } from 'node:crypto';
import { fetchFrom, signedClient } from '@mm/testing';
import { startApiApp } from '../test-support/api-app.js';

/**
 * Unknown-key floods (security review point 6) at the app: a key of a format never issued costs no key
 * lookup and no database query, and an address that failed too often is refused whatever would fail
 * and before any read of a key from the database.
 */
let app: Awaited<ReturnType<typeof startApiApp>>;
const LIMIT = 5;
let lastAddress = 1;
/** A client address no other test of this suite used (failures are counted per address). */
const newAddress = () => `127.0.0.${++lastAddress}`;

beforeAll(async () => {
  app = await startApiApp({ authFailureLimit: LIMIT });
});
afterAll(async () => {
  await app?.stop();
});

const wellFormed = () => `pk_${randomBytes(16).toString('hex')}`;
const clientWith = (apiKey: string, address: string) =>
  signedClient(app.url, apiKey, 'sk_whatever', fetchFrom(address));

describe('API keys of a format never issued', () => {
  it.each([
    ['not a key at all', 'x'],
    ['too short', 'pk_0123456789abcdef'],
    ['upper case', `pk_${randomBytes(16).toString('hex').toUpperCase()}`],
    ['an extra character', `${wellFormed()}0`],
    ['a test key of another format', 'pk_unknown0000000000000000000000'],
    ['two keys in one header', `${wellFormed()}, ${wellFormed()}`],
  ])('%s: 401 INVALID_API_KEY with no key lookup and no database query', async (_what, apiKey) => {
    const [lookups, queries] = [app.lookups.length, app.queries.length];
    const res = await clientWith(apiKey, newAddress())('GET', '/api/v1/balances');
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 401, code: 'INVALID_API_KEY' });
    expect(app.lookups.slice(lookups)).toEqual([]);
    expect(app.queries.slice(queries)).toEqual([]);
  });

  it("a well-formed unknown key is looked up (once: then it is remembered as unknown), and the merchant's key works", async () => {
    const apiKey = wellFormed();
    const queries = app.queries.length;
    const api = clientWith(apiKey, newAddress());
    expect((await api('GET', '/api/v1/balances')).body.error.code).toBe('INVALID_API_KEY');
    expect((await api('GET', '/api/v1/balances')).body.error.code).toBe('INVALID_API_KEY');
    expect(app.lookups.filter((k) => k === apiKey)).toHaveLength(2);
    expect(app.queries.slice(queries).filter((q) => q.includes('api_keys'))).toHaveLength(1);
    expect(
      (
        await signedClient(
          app.url,
          app.key.apiKey,
          app.key.apiSecret,
          fetchFrom(newAddress()),
        )('GET', '/api/v1/balances')
      ).status,
    ).toBe(200);
  });
});

describe('failed authentications per client address', () => {
  it(`answers 429 RATE_LIMITED with Retry-After after ${LIMIT} failures from one address, before any database read of a key`, async () => {
    const address = newAddress();
    const api = clientWith(wellFormed(), address);
    for (let i = 0; i < LIMIT; i++) expect((await api('GET', '/api/v1/balances')).status).toBe(401);
    // The merchant's key is in memory (read once, from another address).
    expect(
      (
        await signedClient(
          app.url,
          app.key.apiKey,
          app.key.apiSecret,
          fetchFrom(newAddress()),
        )('GET', '/api/v1/balances')
      ).status,
    ).toBe(200);

    const queries = app.queries.length;
    const refused = await api('GET', '/api/v1/balances');
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Made-up keys from there are refused unread: no database query however many.
    for (let i = 0; i < 5; i++)
      expect((await clientWith(wellFormed(), address)('GET', '/api/v1/balances')).status).toBe(429);
    // A wrong secret with the merchant's key is refused too.
    const merchantThere = signedClient(app.url, app.key.apiKey, app.key.apiSecret, fetchFrom(address));
    expect((await merchantThere('GET', '/api/v1/balances', undefined, { secretOverride: 'sk_wrong' })).status).toBe(
      429,
    );
    expect(app.queries.slice(queries).filter((q) => q.includes('api_keys'))).toEqual([]);
    // A correctly signed request of a key in memory still passes: a noisy neighbour behind one NAT does
    // not shut the merchant out, and this path pays no limiter round trip.
    expect((await merchantThere('GET', '/api/v1/balances')).status).toBe(200);
  });

  it('counts every kind of 401 (missing headers, bad signature, bad timestamp), and never a success', async () => {
    const address = newAddress();
    const merchant = signedClient(app.url, app.key.apiKey, app.key.apiSecret, fetchFrom(address));
    for (let i = 0; i < 20; i++) expect((await merchant('GET', '/api/v1/balances')).status).toBe(200);
    const failures = [
      () => merchant('GET', '/api/v1/balances', undefined, { headers: {} }),
      () => merchant('GET', '/api/v1/balances', undefined, { secretOverride: 'sk_wrong' }),
      () => merchant('GET', '/api/v1/balances', undefined, { timestamp: '1000' }),
      () => clientWith('garbage', address)('GET', '/api/v1/balances'),
      () => clientWith(wellFormed(), address)('GET', '/api/v1/balances'),
    ];
    for (const fail of failures) expect((await fail()).status).toBe(401);
    expect((await merchant('GET', '/api/v1/balances', undefined, { secretOverride: 'sk_wrong' })).status).toBe(429);
  });
});
