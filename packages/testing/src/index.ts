export {
  createTestDatabase,
  createEmptyDatabase,
  createDbTestDatabase,
  createMerchantTestDatabase,
  type TestDatabase,
  type DbTestDatabase,
  type MerchantTestDatabase,
} from './test-database.js';
export { createTestRedis, TEST_REDIS_URL, type TestRedis } from './test-redis.js';
export { waitFor } from './wait-for.js';
export { signedClient, type ApiResponse, type SignOptions } from './signed-client.js';
export { distinctFreePorts, freePort } from './free-port.js';
export { startTcpRelay, type TcpRelay } from './tcp-relay.js';
export { fetchFrom } from './fetch-from.js';
export { startReceiver, type Receiver, type ReceivedRequest, type Reply } from './webhook-receiver.js';
export { samplesOf, sumBy, type Sample } from './prometheus-text.js';
export { OpenApiConformance, type ReceivedResponse } from './openapi-conformance.js';
export { sandboxFetch, type SandboxFetch } from './sandbox-fetch.js';
export { osUserPostgres } from './os-user.js';
export { PgBouncer, type PgBouncerOptions, type PooledDatabase } from './pgbouncer.js';
export { PrivatePostgres, postgresBinDir, type PrivatePostgresOptions } from './private-postgres.js';
export { PrivateRedisCluster, redisAnswers } from './redis-cluster.js';
export { registerEngine, unregisterEngine, type Engine } from './engine-registry.js';
export { TestClient, type PageResponse } from './web-client.js';
