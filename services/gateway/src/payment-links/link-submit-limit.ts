import type { RedisClient } from '@mm/queues';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface LinkSubmitLimitOptions {
  redis: RedisClient;
  redisPrefix: string;
  /** LINK_SUBMIT_PER_LINK_PER_MIN: submissions one link takes a minute, whoever sends them. */
  perLinkPerMin: number;
  /** LINK_SUBMIT_PER_ADDRESS_PER_MIN: submissions one client address may send a minute, whatever the link. */
  perAddressPerMin: number;
}

const limiter = (o: LinkSubmitLimitOptions, name: string, points: number) =>
  new RateLimiterRedis({
    storeClient: o.redis,
    keyPrefix: `${o.redisPrefix}:linksubmit:${name}`,
    points,
    duration: 60,
    // Redis not ready (down, reconnecting): the memory limiter answers at once rather than the command
    // waiting in ioredis's offline queue.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ points, duration: 60 }),
  });

/**
 * Submissions of payment links' pages: each starts a push to somebody's phone, so a link shared too
 * widely (or a script) must not ring phones without end, nor one address try number after number.
 * Counted in Redis, shared by every gateway instance. When Redis cannot answer, each instance keeps
 * counting in its own memory with the same limits (rate-limiter-flexible's insurance limiter): a
 * bound still holds (per instance), and customers are not all refused for Redis's sake.
 */
export class LinkSubmitLimit {
  private readonly perLink: RateLimiterRedis;
  private readonly perAddress: RateLimiterRedis;

  constructor(o: LinkSubmitLimitOptions) {
    this.perLink = limiter(o, 'link', o.perLinkPerMin);
    this.perAddress = limiter(o, 'addr', o.perAddressPerMin);
  }

  /** Counts one submission; seconds until another may be sent when past either limit, else null. */
  async consume(linkId: string, address: string): Promise<number | null> {
    const waits = await Promise.all([take(this.perAddress, address), take(this.perLink, linkId)]);
    const refused = waits.filter((w): w is number => w !== null);
    return refused.length === 0 ? null : Math.max(...refused);
  }
}

async function take(l: RateLimiterRedis, key: string): Promise<number | null> {
  try {
    await l.consume(key);
    return null;
  } catch (res) {
    if (res instanceof RateLimiterRes) return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    throw res;
  }
}
