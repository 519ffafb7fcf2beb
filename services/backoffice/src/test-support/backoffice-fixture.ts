/** A running back-office for one test suite: its own database, its own Redis prefix, real wiring (service.ts). */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createDb, type Db, SecretBox } from '@mm/db';
import { createStaffUser, type StaffAccount } from '@mm/db/staff';
import type { StaffRole } from '@mm/domain';
import { createLogger } from '@mm/observability';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mm/testing';
import { parseEnv } from '../env.js';
import { sessionKeyPrefix } from '@mm/web';
import { SESSION_APP } from '../http/session.js';
import { startBackoffice, type BackofficeOverrides, type RunningBackoffice } from '../service.js';
import { TestClient } from '@mm/testing';

export const TEST_PASSWORD = 'test-password-123';

export interface BackofficeFixture {
  url: string;
  /** /health, /ready and /metrics. */
  internalUrl: string;
  db: Db;
  /** For looking at the suite's keys (sessions, login counters). */
  redis: Redis;
  prefix: string;
  /** Opens the secrets of keys the back-office issued (findActiveKey), with the suite's MASTER_KEY. */
  box: SecretBox;
  /** A browser-like client; `headers` are sent with each of its requests (e.g. X-Forwarded-For). */
  client(headers?: Record<string, string>): TestClient;
  createStaff(role: StaffRole, email?: string): Promise<StaffAccount>;
  /** The Redis key of a session id. */
  sessionKey(sessionId: string): string;
  stop(): Promise<void>;
}

let counter = 0;

export async function startBackofficeFixture(
  env: Record<string, string> = {},
  overrides: BackofficeOverrides = {},
): Promise<BackofficeFixture> {
  const database: TestDatabase = await createTestDatabase();
  const testRedis: TestRedis = await createTestRedis();
  const db = createDb({ databaseUrl: database.url, poolSize: 3 });
  const redis = new Redis(testRedis.url);
  // A random key per suite, as production has its own: nothing may depend on a known one.
  const masterKey = randomBytes(32).toString('hex');
  const running: RunningBackoffice = await startBackoffice(
    parseEnv({
      DATABASE_URL: database.url,
      REDIS_URL: testRedis.url,
      REDIS_PREFIX: testRedis.prefix,
      BACKOFFICE_PORT: '0',
      BACKOFFICE_INTERNAL_PORT: '0',
      DB_POOL_SIZE: '3',
      MASTER_KEY: masterKey,
      ...env,
    }),
    { logger: createLogger('backoffice-test', process.env.TEST_LOG_LEVEL ?? 'silent'), ...overrides },
  );
  return {
    url: running.url,
    internalUrl: running.internalUrl,
    db,
    redis,
    prefix: testRedis.prefix,
    box: new SecretBox(masterKey),
    client: (headers) => new TestClient(running.url, headers),
    createStaff: (role, email) =>
      createStaffUser(db, {
        email: email ?? `${role}${++counter}@example.test`,
        name: `Test ${role}`,
        role,
        password: TEST_PASSWORD,
      }),
    sessionKey: (id) => `${sessionKeyPrefix(testRedis.prefix, SESSION_APP)}${id}`,
    async stop() {
      await running.stop();
      redis.disconnect();
      await testRedis.close();
      await db.$disconnect();
      await database.drop();
    },
  };
}
