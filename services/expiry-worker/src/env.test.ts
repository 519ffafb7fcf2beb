import { parseEnv } from './env.js';

describe('expiry-worker environment', () => {
  it('runs 20 jobs at once by default; EXPIRY_CONCURRENCY tunes it per replica and refuses what is not a positive integer', () => {
    expect(parseEnv({}).EXPIRY_CONCURRENCY).toBe(20);
    expect(parseEnv({ EXPIRY_CONCURRENCY: '50' }).EXPIRY_CONCURRENCY).toBe(50);
    for (const bad of ['0', '-1', '2.5', 'many'])
      expect(() => parseEnv({ EXPIRY_CONCURRENCY: bad })).toThrow(/EXPIRY_CONCURRENCY/);
  });
});
