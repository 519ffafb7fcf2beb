import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { createRedisConnection, isRedisUnavailable, redisTargetOf } from './redis-connection.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A loopback port nobody listens on (free a moment ago). */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('createRedisConnection with a command timeout, and isRedisUnavailable', () => {
  const prefix = `mmtest${randomBytes(5).toString('hex')}`;

  it('a command to a Redis nobody listens on fails within the timeout (not queued until it comes back), as unavailable', async () => {
    const redis = createRedisConnection(`redis://127.0.0.1:${await freePort()}`, { commandTimeoutMs: 200 });
    redis.on('error', () => undefined);
    try {
      const started = Date.now();
      const err = await redis.get('k').then(
        () => null,
        (e: unknown) => e,
      );
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(isRedisUnavailable(err)).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it('is false for a command Redis refused and for a bug', async () => {
    const redis = createRedisConnection(REDIS_URL, { commandTimeoutMs: 1_000 });
    const key = `${prefix}:a-list`;
    try {
      await redis.rpush(key, 'x');
      const wrongType = await redis.get(key).then(
        () => null,
        (e: unknown) => e,
      );
      expect(wrongType).toBeInstanceOf(Error);
      expect(isRedisUnavailable(wrongType)).toBe(false);
      expect(isRedisUnavailable(new Error('a bug'))).toBe(false);
      expect(isRedisUnavailable(Object.assign(new Error('LOADING Redis is loading the dataset in memory'), {}))).toBe(
        true,
      );
    } finally {
      await redis.del(key);
      redis.disconnect();
    }
  });
});

describe('redisTargetOf and a connection behind Sentinel', () => {
  it('REDIS_URL alone is a direct connection; with REDIS_SENTINELS, the sentinels and the master name (REDIS_URL keeps the password and db)', () => {
    expect(redisTargetOf({ REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual({ url: 'redis://127.0.0.1:6379' });
    expect(
      redisTargetOf({
        REDIS_URL: 'redis://:secret@ignored:6379/2',
        REDIS_SENTINELS: 'sentinel-a:26379,10.0.0.7:26380',
        REDIS_SENTINEL_MASTER: 'mm',
      }),
    ).toEqual({
      url: 'redis://:secret@ignored:6379/2',
      sentinel: {
        nodes: [
          { host: 'sentinel-a', port: 26379 },
          { host: '10.0.0.7', port: 26380 },
        ],
        master: 'mm',
      },
    });
  });

  it('asks the sentinels for the primary, with the password and db of REDIS_URL', () => {
    const redis = createRedisConnection(
      { url: 'redis://:secret@ignored:6379/2', sentinel: { nodes: [{ host: '127.0.0.1', port: 1 }], master: 'mm' } },
      { maxRetriesPerRequest: 2 },
    );
    redis.on('error', () => undefined);
    try {
      expect(redis.options).toMatchObject({
        sentinels: [{ host: '127.0.0.1', port: 1 }],
        name: 'mm',
        password: 'secret',
        db: 2,
        maxRetriesPerRequest: 2,
      });
    } finally {
      redis.disconnect();
    }
  });
});
