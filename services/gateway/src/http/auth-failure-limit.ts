import type { RedisClient } from '@mm/queues';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Logger } from '@mm/observability';

export interface AuthFailureLimitOptions {
  redis: RedisClient;
  redisPrefix: string;
  /** AUTH_FAILURE_LIMIT: failed authentications a client address may have in one window. */
  limit: number;
  /** AUTH_FAILURE_WINDOW_S: the window, fixed from the first failure. */
  windowS: number;
  logger: Logger;
}

/**
 * Failed authentications (every 401) counted per client address, in Redis so that every gateway
 * instance sees the same count. Once an address has had `limit` of them in a window, until the window
 * ends it is refused whatever would fail, and any read of a key from the database (a key not in
 * memory): nobody can try keys or secrets, or make the gateway read made-up keys, faster than that.
 * Consulted only on those two paths, never on a correctly signed request of a key held in memory, so
 * the merchant's traffic pays no round trip for it. Like the per-merchant limiter, it lets requests
 * through when Redis cannot be reached, rather than refuse payments.
 */
export class AuthFailureLimit {
  private readonly failures: RateLimiterRedis;

  constructor(private readonly o: AuthFailureLimitOptions) {
    this.failures = new RateLimiterRedis({
      storeClient: o.redis,
      keyPrefix: `${o.redisPrefix}:authfail`,
      points: o.limit,
      duration: o.windowS,
    });
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

  /**
   * Counts one failure; returns the seconds until `client` may try again when this failure is past the
   * limit (answer it 429, not 401), else null.
   */
  async failed(client: string): Promise<number | null> {
    try {
      const used = await this.failures.penalty(client, 1);
      // Once per window and address: the moment it starts being refused.
      if (used.consumedPoints === this.o.limit) {
        this.o.logger.warn(
          { client, failures: used.consumedPoints, window_s: this.o.windowS },
          'too many failed authentications from one address; refused until the window ends',
        );
      }
      return used.consumedPoints > this.o.limit ? Math.max(1, Math.ceil(used.msBeforeNext / 1000)) : null;
    } catch (err) {
      this.o.logger.warn({ err }, 'failed-authentication limiter unavailable; failure not counted');
      return null;
    }
  }
}
