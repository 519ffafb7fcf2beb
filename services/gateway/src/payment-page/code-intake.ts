import type { CodeIntake } from '@mm/collections';
import type { RedisClient } from '@mm/queues';
import type { CustomerCodeJob, QueueProducer } from '@mm/queues';

/** One-time codes a payment page may post per cash-in before it is refused (CODE_ATTEMPTS_MAX). */
export const CODE_ATTEMPTS_MAX = 5;
/** How long the count is kept: past any confirmation delay, so a payment's attempts never start over. */
export const CODE_ATTEMPTS_WINDOW_S = 24 * 3600;

/**
 * The codes' intake on Redis: the per-transaction count is shared by every gateway instance, so nobody
 * gets more than `max` guesses at a payment's code, however many requests or instances.
 */
export function redisCodeIntake(o: {
  redis: RedisClient;
  redisPrefix: string;
  queue: QueueProducer<CustomerCodeJob>;
  max?: number;
  windowS?: number;
}): CodeIntake {
  const max = o.max ?? CODE_ATTEMPTS_MAX;
  const windowS = o.windowS ?? CODE_ATTEMPTS_WINDOW_S;
  return {
    async takeAttempt(transactionId) {
      const key = `${o.redisPrefix}:pay-code-attempts:${transactionId}`;
      const [[, used]] = (await o.redis.multi().incr(key).expire(key, windowS).exec()) as [[Error | null, number]];
      return used <= max;
    },
    submit: (job) => o.queue.add(job),
  };
}
