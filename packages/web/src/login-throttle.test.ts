/** The throttle's decisions against the real Redis, under concurrency: counted and decided in one step. */
import { Redis } from 'ioredis';
import { createTestRedis, type TestRedis } from '@mm/testing';
import { LoginThrottle, type Admission } from './login-throttle.js';

const LIMITS = { maxFailures: 5, lockoutS: 900, maxPerAddress: 20, addressWindowS: 600 };

describe('LoginThrottle', () => {
  let testRedis: TestRedis;
  let redis: Redis;
  let throttle: LoginThrottle;
  beforeAll(async () => {
    testRedis = await createTestRedis();
    redis = new Redis(testRedis.url);
    throttle = new LoginThrottle(redis, testRedis.prefix, LIMITS, 'bo', (email) => email.trim().toLowerCase());
  });
  afterAll(async () => {
    redis.disconnect();
    await testRedis.close();
  });

  const kinds = (admissions: Admission[]) =>
    admissions.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a.kind]: (acc[a.kind] ?? 0) + 1 }), {});

  it('of 200 concurrent attempts on one email (each from its own address), admits exactly maxFailures', async () => {
    const admissions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => throttle.admit('burst@example.test', `198.51.100.${i % 250}`)),
    );
    expect(kinds(admissions)).toEqual({ admitted: 5, locked: 195 });
    expect(admissions.flatMap((a) => (a.kind === 'admitted' ? [a.attempt] : [])).sort()).toEqual([1, 2, 3, 4, 5]);
    // Every refusal has its own number: the 1st, 10th, 100th are the ones audited.
    expect(new Set(admissions.flatMap((a) => (a.kind === 'locked' ? [a.refused] : []))).size).toBe(195);
  });

  it("refused attempts while locked neither count nor move the lock's end", async () => {
    const key = throttle.accountKey('held@example.test');
    for (let i = 0; i < LIMITS.maxFailures; i++)
      expect((await throttle.admit('held@example.test', '192.0.2.1')).kind).toBe('admitted');
    // As if the lock had been set a while ago: its end must stay where it is.
    await redis.expire(key, 300);
    for (let i = 0; i < 10; i++)
      expect(await throttle.admit('HELD@example.test', '192.0.2.2')).toEqual({ kind: 'locked', refused: i + 1 });
    expect(await redis.hget(key, 'n')).toBe(String(LIMITS.maxFailures));
    expect(await redis.ttl(key)).toBeLessThanOrEqual(300);
    // Once it has expired, the count starts again from zero.
    await redis.del(key);
    expect(await throttle.admit('held@example.test', '192.0.2.1')).toEqual({ kind: 'admitted', attempt: 1 });
  });

  it("a success clears the email's count and gives its attempt back to the address", async () => {
    const ip = '192.0.2.50';
    for (let i = 0; i < 3; i++) await throttle.admit('ok@example.test', ip);
    expect(await redis.hget(throttle.addressKey(ip), 'n')).toBe('3');
    await throttle.succeeded('ok@example.test', ip);
    expect(await redis.exists(throttle.accountKey('ok@example.test'))).toBe(0);
    expect(await redis.hget(throttle.addressKey(ip), 'n')).toBe('2');
    // Never below zero, never a key without a TTL.
    await throttle.succeeded('ok@example.test', '192.0.2.51');
    expect(await redis.exists(throttle.addressKey('192.0.2.51'))).toBe(0);
  });

  it('of 100 concurrent attempts from one address on as many emails, admits exactly maxPerAddress; other addresses and the emails are untouched', async () => {
    const ip = '203.0.113.9';
    const admissions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => throttle.admit(`spray${i}@example.test`, ip)),
    );
    expect(kinds(admissions)).toEqual({ admitted: 20, throttled: 80 });
    const throttled = admissions.find((a) => a.kind === 'throttled') as Extract<Admission, { kind: 'throttled' }>;
    expect(throttled.retryAfterS).toBeGreaterThan(0);
    expect(throttled.retryAfterS).toBeLessThanOrEqual(LIMITS.addressWindowS);
    // A throttled attempt does not count against the email it tried.
    const untouched = admissions.flatMap((a, i) => (a.kind === 'throttled' ? [i] : []));
    expect(await redis.exists(throttle.accountKey(`spray${untouched[0]}@example.test`))).toBe(0);
    // The window is fixed from the first attempt: refusals do not push it further.
    expect(await redis.ttl(throttle.addressKey(ip))).toBeLessThanOrEqual(LIMITS.addressWindowS);
    expect((await throttle.admit('spray0@example.test', '203.0.113.10')).kind).toBe('admitted');
    // The same client over IPv6: one /64 is one address.
    const v6 = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        throttle.admit(`v6-${i}@example.test`, `2001:db8:7:7::${(i + 1).toString(16)}`),
      ),
    );
    expect(kinds(v6)).toEqual({ admitted: 20, throttled: 10 });
  });

  it('keys name neither the email nor the address', () => {
    expect(throttle.accountKey('Someone@Example.test')).toMatch(
      new RegExp(`^${testRedis.prefix}:bo:login-account:[0-9a-f]{64}$`),
    );
    expect(throttle.accountKey('Someone@Example.test')).toBe(throttle.accountKey('someone@example.test'));
    expect(throttle.addressKey('203.0.113.9')).toMatch(
      new RegExp(`^${testRedis.prefix}:bo:login-address:[0-9a-f]{64}$`),
    );
  });
});
