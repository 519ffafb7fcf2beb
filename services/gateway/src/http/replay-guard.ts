import type { Redis } from 'ioredis';

/** Remembers (key, signature) pairs for twice the tolerance window: a captured request cannot be replayed. */
export class ReplayGuard {
  constructor(
    private readonly redis: Redis,
    private readonly redisPrefix: string,
    private readonly toleranceS: number,
  ) {}

  async firstUse(apiKey: string, signature: string): Promise<boolean> {
    const reply = await this.redis.set(`${this.redisPrefix}:replay:${apiKey}:${signature}`, '1', 'EX', this.toleranceS * 2, 'NX');
    return reply === 'OK';
  }
}
