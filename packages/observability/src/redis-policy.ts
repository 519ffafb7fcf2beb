import type { Cluster, Redis } from 'ioredis';

/** BullMQ jobs are data: a Redis that may evict keys can silently drop them, so refuse to start. */
export async function assertRedisNoEviction(redis: Redis | Cluster): Promise<void> {
  // A cluster: every master (CONFIG goes to one node); known once the client has the slots (after a PING).
  if (redis.isCluster) await redis.ping();
  const nodes = redis.isCluster ? (redis as Cluster).nodes('master') : [redis as Redis];
  for (const node of nodes) {
    const reply = (await node.config('GET', 'maxmemory-policy')) as string[];
    const policy = reply[1];
    if (policy !== 'noeviction') {
      throw new Error(`Redis maxmemory-policy is "${policy}"; it must be "noeviction" (jobs would be evicted)`);
    }
  }
}
