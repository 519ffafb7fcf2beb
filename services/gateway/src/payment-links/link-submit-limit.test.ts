import { createRedisConnection, type RedisClient } from '@mm/queues';
import { createTestRedis, type TestRedis } from '@mm/testing';
import { LinkSubmitLimit } from './link-submit-limit.js';

/** The payment links' page limits, on the real Redis, and what they do when Redis cannot be reached. */
describe('LinkSubmitLimit', () => {
  let redis: TestRedis;
  let client: RedisClient;

  beforeAll(async () => {
    redis = await createTestRedis();
    client = createRedisConnection(redis.url);
    // Ready before the first count: until then the limiter counts in memory (the Redis-away direction).
    await client.ping();
  });
  afterAll(async () => {
    client.disconnect();
    await redis.close();
  });

  const limit = (prefix: string) =>
    new LinkSubmitLimit({
      redis: client,
      redisPrefix: `${redis.prefix}:${prefix}`,
      perLinkPerMin: 3,
      perAddressPerMin: 2,
    });

  it('refuses an address past its limit, whatever link it submits to, with the seconds to wait', async () => {
    const l = limit('addr');
    expect(await l.consume('link-a', '203.0.113.7')).toBeNull();
    expect(await l.consume('link-b', '203.0.113.7')).toBeNull();
    const wait = await l.consume('link-c', '203.0.113.7');
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await l.consume('link-c', '203.0.113.8')).toBeNull();
  });

  it('refuses a link past its limit, whoever submits', async () => {
    const l = limit('link');
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
      expect(await l.consume('link-x', address)).toBeNull();
    expect(await l.consume('link-x', '198.51.100.4')).not.toBeNull();
    expect(await l.consume('link-y', '198.51.100.4')).toBeNull();
  });

  it('is shared through Redis: a second instance sees the first one’s count', async () => {
    const [one, two] = [limit('shared'), limit('shared')];
    expect(await one.consume('link-s', '192.0.2.1')).toBeNull();
    expect(await two.consume('link-s', '192.0.2.1')).toBeNull();
    expect(await one.consume('link-s', '192.0.2.1')).not.toBeNull();
  });

  it('with Redis unreachable, still limits, per instance, in memory: neither every submission through nor none', async () => {
    // Nothing listens on port 1: the client never becomes ready.
    const gone = createRedisConnection('redis://127.0.0.1:1', { maxRetriesPerRequest: 0 });
    gone.on('error', () => undefined);
    try {
      const l = new LinkSubmitLimit({ redis: gone, redisPrefix: 'gone', perLinkPerMin: 3, perAddressPerMin: 2 });
      expect(await l.consume('link-g', '192.0.2.9')).toBeNull();
      expect(await l.consume('link-g', '192.0.2.9')).toBeNull();
      expect(await l.consume('link-g', '192.0.2.9')).not.toBeNull();
      expect(await l.consume('link-h', '192.0.2.10')).toBeNull();
      expect(await l.consume('link-g', '192.0.2.11')).not.toBeNull();
    } finally {
      gone.disconnect();
    }
  });
});
