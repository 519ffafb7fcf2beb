import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError } from '@mm/domain';
import type { Logger } from '@mm/observability';
import { merchantContext } from './request-context.js';

export interface RateLimitOptions {
  redis: Redis;
  redisPrefix: string;
  perSecond: number;
  burst: number;
  logger: Logger;
}

/**
 * decisions 10: per merchant, shared by every gateway instance through Redis. A sustained rate of
 * `perSecond`, plus up to `burst - perSecond` extra requests spread over a 10 s window.
 */
export function rateLimit(o: RateLimitOptions): RequestHandler {
  const base = new RateLimiterRedis({ storeClient: o.redis, keyPrefix: `${o.redisPrefix}:rl`, points: o.perSecond, duration: 1 });
  const extra = Math.max(o.burst - o.perSecond, 0);
  const limiter = extra > 0
    ? new BurstyRateLimiter(base, new RateLimiterRedis({ storeClient: o.redis, keyPrefix: `${o.redisPrefix}:rlb`, points: extra, duration: 10 }))
    : base;

  return async (_req, res, next) => {
    // Outside the try: a missing merchant is a wiring fault, not Redis trouble to let through.
    const { merchantId } = merchantContext(res);
    try {
      const r = await limiter.consume(merchantId);
      res.setHeader('RateLimit-Limit', String(o.perSecond));
      res.setHeader('RateLimit-Remaining', String(Math.max(r.remainingPoints, 0)));
      res.setHeader('RateLimit-Reset', String(Math.ceil(r.msBeforeNext / 1000)));
      next();
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        const retryAfter = String(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
        res.setHeader('Retry-After', retryAfter);
        res.setHeader('RateLimit-Limit', String(o.perSecond));
        res.setHeader('RateLimit-Remaining', '0');
        res.setHeader('RateLimit-Reset', retryAfter);
        next(new DomainError('RATE_LIMITED', `too many requests; retry after ${retryAfter} s`));
        return;
      }
      // Redis trouble must not turn into refused payments: let the request through and say so.
      o.logger.warn({ err }, 'rate limiter unavailable; request allowed');
      next();
    }
  };
}
