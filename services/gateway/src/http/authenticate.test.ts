import { randomBytes } from 'node:crypto';
import { fetchFrom, signedClient } from '@mm/testing';
import { startApiApp } from '../test-support/api-app.js';

/**
 * Unknown-key floods (security review point 6) at the app: a key of a format never issued costs no key
 * lookup and no database query.
 */
let app: Awaited<ReturnType<typeof startApiApp>>;
let lastAddress = 1;
/** A client address no other test of this suite used (failures are counted per address). */
const newAddress = () => `127.0.0.${++lastAddress}`;

beforeAll(async () => {
  app = await startApiApp();
});
afterAll(async () => {
  await app?.stop();
});

const wellFormed = () => `pk_${randomBytes(16).toString('hex')}`;
const clientWith = (apiKey: string, address: string) => signedClient(app.url, apiKey, 'sk_whatever', fetchFrom(address));

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

  it('a well-formed unknown key is looked up (once: then it is remembered as unknown), and the merchant\'s key works', async () => {
    const apiKey = wellFormed();
    const queries = app.queries.length;
    const api = clientWith(apiKey, newAddress());
    expect((await api('GET', '/api/v1/balances')).body.error.code).toBe('INVALID_API_KEY');
    expect((await api('GET', '/api/v1/balances')).body.error.code).toBe('INVALID_API_KEY');
    expect(app.lookups.filter((k) => k === apiKey)).toHaveLength(2);
    expect(app.queries.slice(queries).filter((q) => q.includes('api_keys'))).toHaveLength(1);
    expect((await signedClient(app.url, app.key.apiKey, app.key.apiSecret, fetchFrom(newAddress()))('GET', '/api/v1/balances')).status).toBe(200);
  });
});
