import { parseEnv } from './env.js';

describe('refund-worker environment', () => {
  it('runs 10 jobs at once by default; REFUND_CONCURRENCY tunes it per replica and refuses what is not a positive integer', () => {
    expect(parseEnv({}).REFUND_CONCURRENCY).toBe(10);
    expect(parseEnv({ REFUND_CONCURRENCY: '50' }).REFUND_CONCURRENCY).toBe(50);
    for (const bad of ['0', '-1', '2.5', 'many'])
      expect(() => parseEnv({ REFUND_CONCURRENCY: bad })).toThrow(/REFUND_CONCURRENCY/);
  });
});
