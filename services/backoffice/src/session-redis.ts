import type { RedisClientType } from 'redis';
import { createClient, createSentinel } from 'redis';
import type { RedisTarget } from '@mm/queues';

/** What the back-office does with its sessions' Redis connection. */
export interface SessionRedis {
  on(event: 'error', listener: (err: unknown) => void): unknown;
  connect(): Promise<unknown>;
  ping(): Promise<string>;
  close(): Promise<void>;
  /** For connect-redis, which speaks node-redis only (the services' own connections are ioredis). */
  storeClient: RedisClientType;
}

/**
 * The sessions' node-redis connection: a client of REDIS_URL, or behind Sentinel a sentinel-aware one
 * that asks the sentinels for the primary and follows a promotion (docs/deployment.md).
 */
export function sessionRedisOf(target: RedisTarget): SessionRedis {
  if (!target.sentinels?.length) {
    const client = createClient({ url: target.url });
    return Object.assign(client, { storeClient: client as RedisClientType });
  }
  const u = new URL(target.url);
  const sentinel = createSentinel({
    name: target.sentinelMaster ?? 'mymaster',
    sentinelRootNodes: target.sentinels,
    nodeClientOptions: {
      ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
      ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
      database: Number(u.pathname.slice(1) || 0),
    },
  });
  // connect-redis uses get, set, expire, del, mGet and scanIterator, which the sentinel client has too.
  return Object.assign(sentinel, { storeClient: sentinel as unknown as RedisClientType });
}
