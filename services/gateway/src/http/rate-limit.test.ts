import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type NextFunction, type Response } from 'express';
import { Redis } from 'ioredis';
import { BurstyRateLimiter, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { createLogger } from '@mm/observability';
import { createTestRedis, type TestRedis } from '@mm/testing';
import { errorHandler } from './error-handler.js';
import { rateLimit } from './rate-limit.js';
import { setMerchantContext } from './request-context.js';

const logger = createLogger('test', 'silent');
let testRedis: TestRedis;
const connections: Redis[] = [];
/** A connection of its own, as each gateway instance has. */
const connect = () => {
  const redis = new Redis(testRedis.url, { maxRetriesPerRequest: 3 });
  connections.push(redis);
  return redis;
};
let prefixes = 0;
const newPrefix = () => `${testRedis.prefix}:${++prefixes}`;

beforeAll(async () => {
  testRedis = await createTestRedis();
});
afterAll(async () => {
  for (const c of connections) c.disconnect();
  await testRedis.close();
});

interface Answer {
  status: 'next' | 'refused';
  headers: Record<string, string>;
}

/** Sends `count` requests of `merchant` through the middleware at once (one event-loop turn) and collects what each got. */
async function volley(middleware: ReturnType<typeof rateLimit>, merchants: string[]): Promise<Answer[]> {
  return Promise.all(
    merchants.map(
      (merchantId) =>
        new Promise<Answer>((resolve) => {
          const headers: Record<string, string> = {};
          const res = {
            locals: {},
            setHeader: (name: string, value: string) => {
              headers[name] = value;
            },
          } as unknown as Response;
          setMerchantContext(res, { merchantId });
          const next: NextFunction = (err?: unknown) => {
            if (err)
              expect(err).toMatchObject({
                code: 'RATE_LIMITED',
                message: `too many requests; retry after ${headers['Retry-After']} s`,
              });
            resolve({ status: err ? 'refused' : 'next', headers });
          };
          void middleware({} as never, res, next);
        }),
    ),
  );
}

/** The same requests one at a time through rate-limiter-flexible, as the middleware did before the flushes. */
async function sequentially(perSecond: number, burst: number, merchants: string[]): Promise<Answer[]> {
  const prefix = newPrefix();
  const redis = connect();
  const base = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:rl`, points: perSecond, duration: 1 });
  const extra = Math.max(burst - perSecond, 0);
  const limiter =
    extra > 0
      ? new BurstyRateLimiter(
          base,
          new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:rlb`, points: extra, duration: 10 }),
        )
      : base;
  const answers: Answer[] = [];
  for (const m of merchants) {
    try {
      const r = await limiter.consume(m);
      answers.push({
        status: 'next',
        headers: {
          'RateLimit-Limit': String(perSecond),
          'RateLimit-Remaining': String(Math.max(r.remainingPoints, 0)),
          'RateLimit-Reset': String(Math.ceil(r.msBeforeNext / 1000)),
        },
      });
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retryAfter = String(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
      answers.push({
        status: 'refused',
        headers: {
          'Retry-After': retryAfter,
          'RateLimit-Limit': String(perSecond),
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': retryAfter,
        },
      });
    }
  }
  return answers;
}

describe('per-merchant rate limit, requests of one event-loop turn in one Redis script', () => {
  it.each([
    ['a base and a burst window', 5, 8, 12],
    ['a base window only (burst = per second)', 3, 3, 7],
  ])('answers exactly as rate-limiter-flexible one request at a time: %s', async (_what, perSecond, burst, count) => {
    const merchants = Array.from({ length: count }, () => 'm-1');
    const redis = connect();
    const sent: string[] = [];
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: { name: string }) => {
      sent.push(command.name);
      return send(command as never);
    }) as typeof redis.sendCommand;
    const answers = await volley(rateLimit({ redis, redisPrefix: newPrefix(), perSecond, burst, logger }), merchants);
    expect(answers).toEqual(await sequentially(perSecond, burst, merchants));
    expect(answers.filter((a) => a.status === 'next')).toHaveLength(burst);
    // One round trip for the whole volley (EVALSHA, then EVAL when the script was new to this Redis).
    expect(sent.filter((name) => name !== 'info')).toEqual(expect.arrayContaining(['evalsha']));
    expect(sent.filter((name) => name === 'evalsha' || name === 'eval').length).toBeLessThanOrEqual(2);
  });

  it('counts each merchant of a flush apart, in the order they came', async () => {
    const merchants = ['a', 'b', 'a', 'c', 'a', 'b', 'a'];
    const answers = await volley(
      rateLimit({ redis: connect(), redisPrefix: newPrefix(), perSecond: 2, burst: 3, logger }),
      merchants,
    );
    expect(answers).toEqual(await sequentially(2, 3, merchants));
    expect(answers.map((a) => a.status)).toEqual(['next', 'next', 'next', 'next', 'next', 'next', 'refused']);
  });

  it('keeps counting across flushes', async () => {
    const middleware = rateLimit({ redis: connect(), redisPrefix: newPrefix(), perSecond: 4, burst: 4, logger });
    const first = await volley(middleware, ['m', 'm']);
    const second = await volley(middleware, ['m', 'm', 'm']);
    expect([...first, ...second].map((a) => a.headers['RateLimit-Remaining'])).toEqual(['3', '2', '1', '0', '0']);
    expect(second.map((a) => a.status)).toEqual(['next', 'next', 'refused']);
  });

  it('lets every request of a flush through, without RateLimit headers, when Redis cannot be reached', async () => {
    // What ioredis does with a command it cannot send (enableOfflineQueue off, or the connection ended).
    const down = {
      defineCommand() {},
      mmRateLimitFlush: () => Promise.reject(new Error("Stream isn't writeable")),
    } as unknown as Redis;
    const answers = await volley(rateLimit({ redis: down, redisPrefix: newPrefix(), perSecond: 1, burst: 1, logger }), [
      'm',
      'm',
      'm',
    ]);
    expect(answers).toEqual([
      { status: 'next', headers: {} },
      { status: 'next', headers: {} },
      { status: 'next', headers: {} },
    ]);
  });
});

describe('two gateway instances on one Redis', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  /** An app of its own (its own Redis connection and limiter), as a second gateway process has. */
  async function instance(redisPrefix: string, perSecond: number, burst: number): Promise<string> {
    const app = express();
    app.use((req, res, next) => {
      setMerchantContext(res, { merchantId: req.get('x-merchant')! });
      next();
    });
    app.use(rateLimit({ redis: connect(), redisPrefix, perSecond, burst, logger }));
    app.get('/x', (_req, res) => {
      res.json({ ok: true });
    });
    app.use(errorHandler(logger));
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((r) => server.once('listening', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  }

  it('share one limit: a merchant gets its burst in all, whichever instance it reaches', async () => {
    const prefix = newPrefix();
    const [a, b] = [await instance(prefix, 3, 5), await instance(prefix, 3, 5)];
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => fetch(i % 2 ? a : b, { headers: { 'x-merchant': 'shared' } })),
    );
    const statuses = answers.map((r) => r.status);
    // 3 a second plus 2 of burst; 3 more if the volley straddles a one-second window. An instance with a
    // limit of its own would have let 5 of its 8 through: 10 in all.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(8);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const remaining = answers.filter((r) => r.status === 200).map((r) => r.headers.get('ratelimit-remaining'));
    expect(remaining).toContain('0');
  });
});
