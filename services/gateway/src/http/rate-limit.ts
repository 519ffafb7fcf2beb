import type { NextFunction, RequestHandler, Response } from 'express';
import type { RedisClient } from '@mm/queues';
import { DomainError } from '@mm/domain';
import type { Logger } from '@mm/observability';
import { merchantContext } from './request-context.js';

export interface RateLimitOptions {
  redis: RedisClient;
  redisPrefix: string;
  perSecond: number;
  burst: number;
  logger: Logger;
}

/** The base window (perSecond) and the burst window (burst - perSecond extra), in seconds. */
const BASE_S = 1;
const BURST_S = 10;

/**
 * Every merchant of one flush: KEYS are its base and burst counters (2 per merchant), ARGV the base
 * points, the extra points, the two windows, then how many requests each merchant sent. Per merchant,
 * the counters rate-limiter-flexible's RateLimiterRedis keeps (same keys, same "SET 0 EX NX, INCRBY,
 * PTTL"), moved by the merchant's requests at once: the base counter by all of them, the burst counter
 * by those past the base points (BurstyRateLimiter consumes burst only once base refuses). Returns 4
 * numbers per merchant: the base count and its PTTL after the flush, the burst count and its PTTL (0, 0
 * when none went to burst).
 */
const FLUSH_SCRIPT = `
local points, extra, baseS, burstS = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4]
local out = {}
for i = 5, #ARGV do
  local n = tonumber(ARGV[i])
  local base, burst = KEYS[2 * (i - 4) - 1], KEYS[2 * (i - 4)]
  redis.call('set', base, 0, 'EX', baseS, 'NX')
  local consumed = redis.call('incrby', base, n)
  local ttl = redis.call('pttl', base)
  if ttl == -1 then redis.call('expire', base, baseS); ttl = 1000 * baseS end
  local over = math.min(n, math.max(0, consumed - points))
  local used, burstTtl = 0, 0
  if over > 0 and extra > 0 then
    redis.call('set', burst, 0, 'EX', burstS, 'NX')
    used = redis.call('incrby', burst, over)
    burstTtl = redis.call('pttl', burst)
    if burstTtl == -1 then redis.call('expire', burst, burstS); burstTtl = 1000 * burstS end
  end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
  out[#out + 1] = used
  out[#out + 1] = burstTtl
end
return out
`;

type FlushCommand = (numKeys: number, ...keysAndArgs: (string | number)[]) => Promise<number[]>;

/**
 * decisions 10: per merchant, shared by every gateway instance through Redis. A sustained rate of
 * `perSecond`, plus up to `burst - perSecond` extra requests spread over a 10 s window.
 *
 * The counters, their keys and the answers (RateLimit-* headers, 429 with Retry-After) are those of
 * rate-limiter-flexible's BurstyRateLimiter over two RateLimiterRedis, one request at a time; what
 * changed is how they reach Redis. Requests are gathered until the event loop has handled the I/O at
 * hand (setImmediate), then every merchant's requests of that turn move its counters in one script,
 * one round trip for all of them instead of one per request. The script runs atomically, so with
 * several gateway instances it is as if each flush's requests had come one after the other: the limit
 * is exact, not approximated. A request waits for the end of its event-loop turn, well under a
 * millisecond at any load the gateway can take.
 */
export function rateLimit(o: RateLimitOptions): RequestHandler {
  const extra = Math.max(o.burst - o.perSecond, 0);
  const limit = String(o.perSecond);
  const command = 'mmRateLimitFlush';
  if (!(command in o.redis)) o.redis.defineCommand(command, { lua: FLUSH_SCRIPT });
  const flushCommand = (o.redis as unknown as Record<string, FlushCommand>)[command]!.bind(o.redis);

  // The requests of the current turn, in arrival order.
  let merchants: string[] = [];
  let responses: Response[] = [];
  let nexts: NextFunction[] = [];
  let scheduled = false;

  const flush = async () => {
    const [ms, rs, ns] = [merchants, responses, nexts];
    merchants = [];
    responses = [];
    nexts = [];
    scheduled = false;
    // How many requests each merchant sent, in the order merchants first appeared.
    const counts = new Map<string, number>();
    for (const m of ms) counts.set(m, (counts.get(m) ?? 0) + 1);
    const keys: string[] = [];
    for (const m of counts.keys()) keys.push(`${o.redisPrefix}:rl:${m}`, `${o.redisPrefix}:rlb:${m}`);
    let result: number[];
    try {
      result = await flushCommand(keys.length, ...keys, o.perSecond, extra, BASE_S, BURST_S, ...counts.values());
    } catch (err) {
      // Redis trouble must not turn into refused payments: let the requests through and say so.
      for (let i = 0; i < ms.length; i++) {
        o.logger.warn({ err }, 'rate limiter unavailable; request allowed');
        ns[i]!();
      }
      return;
    }
    // Per merchant: its counters after the flush, and how many of its requests were answered so far.
    const after = new Map<
      string,
      { consumed: number; ttl: number; used: number; burstTtl: number; n: number; seen: number }
    >();
    let j = 0;
    for (const [m, n] of counts) {
      after.set(m, {
        consumed: Number(result[j]),
        ttl: Number(result[j + 1]),
        used: Number(result[j + 2]),
        burstTtl: Number(result[j + 3]),
        n,
        seen: 0,
      });
      j += 4;
    }
    for (let i = 0; i < ms.length; i++) {
      const a = after.get(ms[i]!)!;
      // This request's place in its merchant's counters, as if the flush's requests came one at a time.
      const k = ++a.seen;
      try {
        answer(rs[i]!, ns[i]!, a, k);
      } catch (err) {
        ns[i]!(err);
      }
    }
  };

  function answer(
    res: Response,
    next: NextFunction,
    a: { consumed: number; ttl: number; used: number; burstTtl: number; n: number },
    k: number,
  ): void {
    const consumed = a.consumed - a.n + k;
    if (consumed <= o.perSecond) {
      res.setHeader('RateLimit-Limit', limit);
      res.setHeader('RateLimit-Remaining', String(o.perSecond - consumed));
      res.setHeader('RateLimit-Reset', String(Math.ceil(a.ttl / 1000)));
      next();
      return;
    }
    // Past the base points: BurstyRateLimiter's answer, remaining 0 and the nearer of the two resets.
    const over = Math.min(a.n, a.consumed - o.perSecond);
    const used = a.used - over + (k - (a.n - over));
    const msBeforeNext = extra > 0 ? Math.min(a.ttl, a.burstTtl) : a.ttl;
    if (extra > 0 && used <= extra) {
      res.setHeader('RateLimit-Limit', limit);
      res.setHeader('RateLimit-Remaining', '0');
      res.setHeader('RateLimit-Reset', String(Math.ceil(msBeforeNext / 1000)));
      next();
      return;
    }
    const retryAfter = String(Math.max(1, Math.ceil(msBeforeNext / 1000)));
    res.setHeader('Retry-After', retryAfter);
    res.setHeader('RateLimit-Limit', limit);
    res.setHeader('RateLimit-Remaining', '0');
    res.setHeader('RateLimit-Reset', retryAfter);
    next(new DomainError('RATE_LIMITED', `too many requests; retry after ${retryAfter} s`));
  }

  return (_req, res, next) => {
    // Before any Redis work: a missing merchant is a wiring fault, not Redis trouble to let through.
    merchants.push(merchantContext(res).merchantId);
    responses.push(res);
    nexts.push(next);
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        flush().catch((err: unknown) => o.logger.error({ err }, 'rate limiter: flush failed'));
      });
    }
  };
}
