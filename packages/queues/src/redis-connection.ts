import { Redis } from 'ioredis';

/** BullMQ workers block on Redis: they need maxRetriesPerRequest null (BullMQ refuses otherwise). */
export function createRedisConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}:bull`;
}
