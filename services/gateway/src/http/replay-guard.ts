import type { RedisClient } from '@mm/queues';
import { rememberOnce } from '@mm/queues';

/** Remembers (key, signature) pairs for twice the tolerance window: a captured request cannot be replayed. */
export class ReplayGuard {
  constructor(
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
    private readonly toleranceS: number,
  ) {}

  firstUse(apiKey: string, signature: string): Promise<boolean> {
    return rememberOnce(this.redis, `${this.redisPrefix}:replay:${apiKey}:${signature}`, this.toleranceS * 2);
  }
}
