export { createTestDatabase, createEmptyDatabase, type TestDatabase } from './test-database.js';
export { createTestRedis, TEST_REDIS_URL, type TestRedis } from './test-redis.js';
export { waitFor } from './wait-for.js';
