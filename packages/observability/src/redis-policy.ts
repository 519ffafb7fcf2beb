import type { Redis } from 'ioredis';

/** BullMQ jobs are data: a Redis that may evict keys can silently drop them, so refuse to start. */
export async function assertRedisNoEviction(redis: Redis): Promise<void> {
  const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
  const policy = reply[1];
  if (policy !== 'noeviction') {
    throw new Error(`Redis maxmemory-policy is "${policy}"; it must be "noeviction" (jobs would be evicted)`);
  }
}
