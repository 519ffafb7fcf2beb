import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createDb, type Db, listenForReferenceChanges, SecretBox } from '@mm/db';
import { createApiKey, createMerchant, lookupApiKey, type ActiveKey } from '@mm/db/merchants';
import { createLogger, createMetricsRegistry, listen } from '@mm/observability';
import { createRedisConnection } from '@mm/queues';
import { createTestDatabase, createTestRedis } from '@mm/testing';
import { createGatewayApp, type GatewayDeps } from '../app.js';
import { AuthFailureLimit } from '../http/auth-failure-limit.js';
import { rateLimit } from '../http/rate-limit.js';
import { ReplayGuard } from '../http/replay-guard.js';
import { createKeyLookup } from '../key-lookup.js';

export interface ApiAppOptions {
  authFailureLimit?: number;
  trustProxyHops?: number;
}

/**
 * The gateway's app (createGatewayApp) over a database and a Redis prefix of its own, with its real
 * authentication pieces (key lookup, replay guard, limiters) and two counters: every key lookup that
 * reached the key memory, and every query sent to PostgreSQL. Routes that need the operator (cash-in,
 * cash-out, refunds) and the export are not wired: the suites using it send reads and refused requests.
 */
export async function startApiApp(o: ApiAppOptions = {}) {
  const database = await createTestDatabase();
  const testRedis = await createTestRedis();
  const queries: string[] = [];
  const db: Db = createDb({ databaseUrl: database.url, poolSize: 3, onQuery: (q) => queries.push(q) });
  const box = new SecretBox(randomBytes(32).toString('hex'));
  const merchant = await createMerchant(db, { name: 'App', webhookUrl: null });
  const key = await createApiKey(db, box, merchant.id);
  const feed = await listenForReferenceChanges({ databaseUrl: database.url, retryMs: 50 });
  const redis = createRedisConnection(testRedis.url);
  const logger = createLogger('test', 'silent');
  const lookup = createKeyLookup({ feed, ttlMs: 60_000, now: Date.now, load: (k) => lookupApiKey(db, box, k) });
  const lookups: string[] = [];

  const metrics = createMetricsRegistry('gateway');
  const deps: Partial<GatewayDeps> = {
    db,
    logger,
    metrics,
    findKey: (apiKey: string, beforeLoad?: () => Promise<void>): Promise<ActiveKey | null> => {
      lookups.push(apiKey);
      return lookup(apiKey, beforeLoad);
    },
    isActiveCountry: async () => true,
    replayGuard: new ReplayGuard(redis, testRedis.prefix, 300),
    authFailures: new AuthFailureLimit({
      redis,
      redisPrefix: testRedis.prefix,
      limit: o.authFailureLimit ?? 100,
      windowS: 60,
      logger,
    }),
    rateLimit: rateLimit({ redis, redisPrefix: testRedis.prefix, perSecond: 1000, burst: 1000, logger }),
    trustProxyHops: o.trustProxyHops ?? 0,
    publicBaseUrl: 'http://pay.example.test',
    toleranceS: 300,
    now: Date.now,
  };
  const { server, port }: { server: Server; port: number } = await listen(
    createGatewayApp(deps as GatewayDeps),
    0,
    '127.0.0.1',
  );
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    db,
    merchantId: merchant.id,
    metrics,
    /** Every API key looked up (the key memory, and through it the database), in order. */
    lookups,
    /** Every SQL statement sent, in order. */
    queries,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await feed.close();
      redis.disconnect();
      await db.$disconnect();
      await testRedis.close();
      await database.drop();
    },
  };
}
