import type { MerchantTestDatabase, TestRedis } from '@mm/testing';
import type { WorkerServiceOptions } from '../start-worker-service.js';

/** A worker service's environment on a suite's own database and Redis prefix, with fast relay passes. */
export function testWorkerEnv(
  fixture: MerchantTestDatabase,
  redis: TestRedis,
  maxFailedRuns = 2,
): WorkerServiceOptions<object>['env'] {
  return {
    DEPLOYMENT_MODE: 'sandbox',
    DATABASE_URL: fixture.database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    LOG_LEVEL: 'silent',
    DB_POOL_SIZE: 2,
    DB_CONNECT_TIMEOUT_MS: 2000,
    DB_STATEMENT_TIMEOUT_MS: 0,
    DB_LOCK_TIMEOUT_MS: 0,
    DB_TRANSACTION_TIMEOUT_MS: 5000,
    DB_POOLING: 'direct',
    REDIS_SENTINEL_MASTER: 'mymaster',
    NODE_ENV: 'test',
    OUTBOX_RELAY_INTERVAL_MS: 50,
    OUTBOX_GRACE_MS: 0,
    OUTBOX_MAX_FAILED_RUNS: maxFailedRuns,
    WORKER_LOCK_MS: 5000,
  };
}
