import { parseEnv } from './env.js';

/** The message parseEnv throws for `source`; fails the test if it accepts it. */
function refusalOf(source: NodeJS.ProcessEnv): string {
  try {
    parseEnv(source);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(source)}`);
}

describe('gateway environment', () => {
  it('applies the documented defaults (README, "Configuration")', () => {
    expect(parseEnv({ MASTER_KEY: 'k' })).toMatchObject({
      GATEWAY_PORT: 3000,
      GATEWAY_INTERNAL_PORT: 3100,
      PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
      AUTH_TOLERANCE_S: 300,
      CASHIN_ACK_WAIT_MS: 5000,
      AMOUNT_MIN: 100,
      AMOUNT_MAX: 5_000_000,
      RATE_LIMIT_PER_S: 50,
      RATE_LIMIT_BURST: 100,
      DISBURSEMENT_ENABLED: false,
      REDIS_PREFIX: 'mm',
      CHAOS_KILL_AFTER_COMMIT_PREFIX: '',
      AUTH_FAILURE_LIMIT: 100,
      AUTH_FAILURE_WINDOW_S: 60,
      TRUST_PROXY: 0,
    });
  });

  it.each([
    ['false', 0],
    ['true', 1],
    ['0', 0],
    ['2', 2],
  ])('reads TRUST_PROXY=%s as %d trusted proxies', (value, hops) => {
    expect(parseEnv({ MASTER_KEY: 'k', TRUST_PROXY: value }).TRUST_PROXY).toBe(hops);
  });

  it.each(['yes', '-1', '11', '1.5'])('refuses TRUST_PROXY=%s', (value) => {
    expect(() => parseEnv({ MASTER_KEY: 'k', TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });

  it('takes the chaos kill hook in a test run only', () => {
    expect(
      parseEnv({ MASTER_KEY: 'k', NODE_ENV: 'test', CHAOS_KILL_AFTER_COMMIT_PREFIX: 'crash-' })
        .CHAOS_KILL_AFTER_COMMIT_PREFIX,
    ).toBe('crash-');
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expect(() =>
        parseEnv({ MASTER_KEY: 'k', NODE_ENV, DEPLOYMENT_MODE: 'live', CHAOS_KILL_AFTER_COMMIT_PREFIX: 'crash-' }),
      ).toThrow(/refused unless NODE_ENV=test/);
    }
    expect(
      parseEnv({ MASTER_KEY: 'k', NODE_ENV: 'production', DEPLOYMENT_MODE: 'live' }).CHAOS_KILL_AFTER_COMMIT_PREFIX,
    ).toBe('');
  });

  it('refuses AMOUNT_MIN above AMOUNT_MAX, naming both, and takes a range of one amount', () => {
    // Every cash-in and cash-out would be AMOUNT_OUT_OF_RANGE: a service that is up and refuses all payments.
    for (const source of [{ AMOUNT_MIN: '10', AMOUNT_MAX: '5' }, { AMOUNT_MIN: '6000000' }]) {
      const message = refusalOf({ MASTER_KEY: 'k', ...source });
      expect(message).toContain('AMOUNT_MIN');
      expect(message).toContain('AMOUNT_MAX');
    }
    expect(parseEnv({ MASTER_KEY: 'k', AMOUNT_MIN: '500', AMOUNT_MAX: '500' })).toMatchObject({
      AMOUNT_MIN: 500,
      AMOUNT_MAX: 500,
    });
  });

  it('refuses to start without MASTER_KEY or with a bad value, naming every problem', () => {
    // One message per start-up: an operator who fixes the first problem must not meet the next one only then.
    const missingAndBad = refusalOf({ GATEWAY_PORT: 'abc' });
    expect(missingAndBad).toContain('MASTER_KEY');
    expect(missingAndBad).toContain('GATEWAY_PORT');
    const bothBad = refusalOf({ MASTER_KEY: 'k', GATEWAY_PORT: 'abc', PUBLIC_BASE_URL: 'ftp://x' });
    expect(bothBad).toContain('GATEWAY_PORT');
    expect(bothBad).toContain('PUBLIC_BASE_URL');
  });
});
