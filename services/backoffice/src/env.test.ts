import { DEV_SESSION_SECRET, parseEnv as parseBackofficeEnv } from './env.js';

const MASTER_KEY = 'ab'.repeat(32);
// Every case but the MASTER_KEY one is about other variables: give it the key it requires.
const parseEnv = (source: NodeJS.ProcessEnv) => parseBackofficeEnv({ MASTER_KEY, ...source });

describe('backoffice environment', () => {
  it('applies the defaults of architecture.md and the README', () => {
    expect(parseEnv({})).toMatchObject({
      BACKOFFICE_PORT: 3001, BACKOFFICE_INTERNAL_PORT: 3101, SESSION_SECRET: DEV_SESSION_SECRET, SESSION_TTL_S: 28_800, LOGIN_MAX_FAILURES: 5,
      LOGIN_LOCKOUT_S: 900, SECURE_COOKIES: false, TRUST_PROXY: false, REDIS_PREFIX: 'mm',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/mobilemoney', REDIS_URL: 'redis://127.0.0.1:6379',
    });
  });

  it('reads every value from the environment', () => {
    expect(parseEnv({
      BACKOFFICE_PORT: '4001', SESSION_SECRET: 'x'.repeat(40), SESSION_TTL_S: '600', LOGIN_MAX_FAILURES: '3',
      LOGIN_LOCKOUT_S: '60', SECURE_COOKIES: 'true', TRUST_PROXY: 'true', REDIS_PREFIX: 'suite1',
    })).toMatchObject({
      BACKOFFICE_PORT: 4001, SESSION_SECRET: 'x'.repeat(40), SESSION_TTL_S: 600, LOGIN_MAX_FAILURES: 3,
      LOGIN_LOCKOUT_S: 60, SECURE_COOKIES: true, TRUST_PROXY: true, REDIS_PREFIX: 'suite1',
    });
  });

  it('requires a real SESSION_SECRET in production (never the published development one)', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET/);
    expect(() => parseEnv({ NODE_ENV: 'production', SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => parseEnv({ NODE_ENV: 'production', SESSION_SECRET: DEV_SESSION_SECRET })).toThrow(/SESSION_SECRET/);
    expect(parseEnv({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) }).SESSION_SECRET).toBe('s'.repeat(32));
  });

  it('requires MASTER_KEY (the gateway\'s: no development default that could differ from it)', () => {
    expect(() => parseBackofficeEnv({})).toThrow(/MASTER_KEY/);
    expect(parseEnv({}).MASTER_KEY).toBe(MASTER_KEY);
  });

  it('refuses bad values, naming every problem', () => {
    expect(() => parseEnv({ BACKOFFICE_PORT: 'abc', LOGIN_MAX_FAILURES: '0', SECURE_COOKIES: 'maybe' }))
      .toThrow(/BACKOFFICE_PORT.*LOGIN_MAX_FAILURES.*SECURE_COOKIES/);
  });
});
