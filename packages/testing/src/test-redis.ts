import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestRedis {
  url: string;
  /** Every key this suite writes starts with it (BullMQ prefix, replay and rate-limit keys). */
  prefix: string;
  /** Deletes every key under the prefix: also how tests simulate Redis losing its data. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Deletes every key of one server that starts with `prefix` (on a cluster: call it on each master). */
export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

export async function createTestRedis(): Promise<TestRedis> {
  const prefix = `mmtest${randomBytes(5).toString('hex')}`;
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 3 });
  const flush = () => deleteKeysUnder(redis, prefix);
  return {
    url: TEST_REDIS_URL,
    prefix,
    flush,
    async close() {
      await flush();
      redis.disconnect();
    },
  };
}
