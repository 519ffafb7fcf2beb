import { Queue } from 'bullmq';
import type { RedisClient } from '@mm/queues';
import { bullPrefix, QUEUE_NAMES } from '@mm/queues';

export interface DashboardQueues {
  queues: Queue[];
  close(): Promise<void>;
}

/**
 * One bullmq Queue per queue of the system (every name in QUEUE_NAMES, so a new queue shows up without
 * touching the back-office), under the same key prefix as the producers and workers (packages/queues
 * bullPrefix), so the Bull dashboard sees the real jobs. They share the caller's connection; close()
 * leaves it open for its owner to close.
 */
export function openDashboardQueues(connection: RedisClient, redisPrefix: string): DashboardQueues {
  const queues = Object.values(QUEUE_NAMES).map(
    (name) => new Queue(name, { connection, prefix: bullPrefix(redisPrefix) }),
  );
  return {
    queues,
    close: async () => {
      await Promise.all(queues.map((q) => q.close()));
    },
  };
}
