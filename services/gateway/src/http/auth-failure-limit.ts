import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Logger } from '@mm/observability';

export interface AuthFailureLimitOptions {
  redis: Redis;
  redisPrefix: string;
  /** AUTH_FAILURE_LIMIT: failed authentications a client address may have in one window. */
  limit: number;
  /** AUTH_FAILURE_WINDOW_S: the window, fixed from the first failure. */
  windowS: number;
  logger: Logger;
}

/**
 * Failed authentications (every 401) counted per client address, in Redis so that every gateway
 * instance sees the same count. Once an address has had `limit` of them in a window, its requests are
 * refused until the window ends, before any key is looked up: nobody can try keys, or make the gateway
 * read made-up keys from the database, faster than that. Like the per-merchant limiter, it lets requests
 * through when Redis cannot be reached, rather than refuse payments.
 */
export class AuthFailureLimit {
  private readonly failures: RateLimiterRedis;

  constructor(private readonly o: AuthFailureLimitOptions) {
    this.failures = new RateLimiterRedis({ storeClient: o.redis, keyPrefix: `${o.redisPrefix}:authfail`, points: o.limit, duration: o.windowS });
  }

  /** Seconds until `client` may try again, or null while it is under the limit. */
  async retryAfterS(client: string): Promise<number | null> {
    try {
      const used = await this.failures.get(client);
      if (!used || used.consumedPoints < this.o.limit) return null;
      return Math.max(1, Math.ceil(used.msBeforeNext / 1000));
    } catch (err) {
      this.o.logger.warn({ err }, 'failed-authentication limiter unavailable; request allowed');
      return null;
    }
  }

  async failed(client: string): Promise<void> {
    try {
      const used = await this.failures.penalty(client, 1);
      // Once per window and address: the moment it starts being refused.
      if (used.consumedPoints === this.o.limit) {
        this.o.logger.warn({ client, failures: used.consumedPoints, window_s: this.o.windowS }, 'too many failed authentications from one address; refused until the window ends');
      }
    } catch (err) {
      this.o.logger.warn({ err }, 'failed-authentication limiter unavailable; failure not counted');
    }
  }
}
