import { DEV_SESSION_SECRET, parseEnv as parseBackofficeEnv } from './env.js';

const MASTER_KEY = 'ab'.repeat(32);
// Every case but the MASTER_KEY one is about other variables: give it the key it requires.
const parseEnv = (source: NodeJS.ProcessEnv) => parseBackofficeEnv({ MASTER_KEY, ...source });

describe('backoffice environment', () => {
  it('applies the documented defaults (README, "Configuration")', () => {
    expect(parseEnv({})).toMatchObject({
      BACKOFFICE_PORT: 3001,
      BACKOFFICE_INTERNAL_PORT: 3101,
      SESSION_SECRET: DEV_SESSION_SECRET,
      SESSION_TTL_S: 28_800,
      LOGIN_MAX_FAILURES: 5,
      LOGIN_LOCKOUT_S: 900,
      LOGIN_MAX_ATTEMPTS_PER_IP: 50,
      LOGIN_IP_WINDOW_S: 900,
      SECURE_COOKIES: false,
      HSTS: false,
      TRUST_PROXY: false,
      REDIS_PREFIX: 'mm',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/mobilemoney',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
  });

  it('reads every value from the environment', () => {
    expect(
      parseEnv({
        BACKOFFICE_PORT: '4001',
        SESSION_SECRET: 'x'.repeat(40),
        SESSION_TTL_S: '600',
        LOGIN_MAX_FAILURES: '3',
        LOGIN_LOCKOUT_S: '60',
        LOGIN_MAX_ATTEMPTS_PER_IP: '7',
        LOGIN_IP_WINDOW_S: '120',
        SECURE_COOKIES: 'true',
        TRUST_PROXY: 'true',
        REDIS_PREFIX: 'suite1',
      }),
    ).toMatchObject({
      BACKOFFICE_PORT: 4001,
      SESSION_SECRET: 'x'.repeat(40),
      SESSION_TTL_S: 600,
      LOGIN_MAX_FAILURES: 3,
      LOGIN_LOCKOUT_S: 60,
      LOGIN_MAX_ATTEMPTS_PER_IP: 7,
      LOGIN_IP_WINDOW_S: 120,
      SECURE_COOKIES: true,
      TRUST_PROXY: true,
      REDIS_PREFIX: 'suite1',
    });
  });

  it('requires a real SESSION_SECRET in production (never the published development one)', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', DEPLOYMENT_MODE: 'live' })).toThrow(/SESSION_SECRET/);
    expect(() => parseEnv({ NODE_ENV: 'production', DEPLOYMENT_MODE: 'live', SESSION_SECRET: 'short' })).toThrow(
      /SESSION_SECRET/,
    );
    expect(() =>
      parseEnv({ NODE_ENV: 'production', DEPLOYMENT_MODE: 'live', SESSION_SECRET: DEV_SESSION_SECRET }),
    ).toThrow(/SESSION_SECRET/);
    expect(
      parseEnv({ NODE_ENV: 'production', DEPLOYMENT_MODE: 'live', SESSION_SECRET: 's'.repeat(32) }).SESSION_SECRET,
    ).toBe('s'.repeat(32));
  });

  it('Secure cookies and HSTS: on by default in production, off by default elsewhere, an explicit value always wins', () => {
    const production = { NODE_ENV: 'production', DEPLOYMENT_MODE: 'live', SESSION_SECRET: 's'.repeat(32) };
    expect(parseEnv(production)).toMatchObject({ SECURE_COOKIES: true, HSTS: true });
    expect(parseEnv({ NODE_ENV: 'development' })).toMatchObject({ SECURE_COOKIES: false, HSTS: false });
    expect(parseEnv({ NODE_ENV: 'test' })).toMatchObject({ SECURE_COOKIES: false, HSTS: false });
    // The off switch, for a plain-HTTP setup on purpose: each one on its own.
    expect(parseEnv({ ...production, SECURE_COOKIES: 'false' })).toMatchObject({ SECURE_COOKIES: false, HSTS: true });
    expect(parseEnv({ ...production, HSTS: 'false' })).toMatchObject({ SECURE_COOKIES: true, HSTS: false });
    expect(parseEnv({ NODE_ENV: 'development', SECURE_COOKIES: 'true', HSTS: 'true' })).toMatchObject({
      SECURE_COOKIES: true,
      HSTS: true,
    });
    expect(() => parseEnv({ ...production, HSTS: 'maybe' })).toThrow(/HSTS/);
  });

  it("requires MASTER_KEY (the gateway's: no development default that could differ from it)", () => {
    expect(() => parseBackofficeEnv({})).toThrow(/MASTER_KEY/);
    expect(parseEnv({}).MASTER_KEY).toBe(MASTER_KEY);
  });

  it("OPERATOR_METRICS_URLS: none by default (the Health column shows the database's figures only); http(s) URLs, comma-separated", () => {
    expect(parseEnv({})).toMatchObject({ OPERATOR_METRICS_URLS: '', OPERATOR_METRICS_TIMEOUT_MS: 1000 });
    const urls = 'http://127.0.0.1:3102/metrics, http://expiry-worker:3006/metrics';
    expect(parseEnv({ OPERATOR_METRICS_URLS: urls, OPERATOR_METRICS_TIMEOUT_MS: '300' })).toMatchObject({
      OPERATOR_METRICS_URLS: urls,
      OPERATOR_METRICS_TIMEOUT_MS: 300,
    });
    expect(() => parseEnv({ OPERATOR_METRICS_URLS: 'http://127.0.0.1:3102/metrics,127.0.0.1:3006' })).toThrow(
      /OPERATOR_METRICS_URLS.*127\.0\.0\.1:3006/,
    );
  });

  it('refuses bad values, naming every problem', () => {
    expect(() =>
      parseEnv({
        BACKOFFICE_PORT: 'abc',
        LOGIN_MAX_FAILURES: '0',
        LOGIN_MAX_ATTEMPTS_PER_IP: '0',
        SECURE_COOKIES: 'maybe',
      }),
    ).toThrow(/BACKOFFICE_PORT.*LOGIN_MAX_FAILURES.*LOGIN_MAX_ATTEMPTS_PER_IP.*SECURE_COOKIES/);
  });
});
