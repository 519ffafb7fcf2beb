import type { RedisClient } from './redis-connection.js';

/**
 * True the first time `key` is seen within `ttlS` seconds, false after, across every instance sharing
 * the Redis: the guard against a signed message (merchant request, operator callback) sent again.
 */
export async function rememberOnce(redis: RedisClient, key: string, ttlS: number): Promise<boolean> {
  return (await redis.set(key, '1', 'EX', Math.max(1, Math.ceil(ttlS)), 'NX')) === 'OK';
}
