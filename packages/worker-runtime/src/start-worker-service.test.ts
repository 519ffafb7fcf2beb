import { createLogger } from '@mm/observability';
import {
  createMerchantTestDatabase,
  createTestRedis,
  waitFor,
  type MerchantTestDatabase,
  type TestRedis,
} from '@mm/testing';
import { testWorkerEnv } from './test-support/worker-env.js';
import { startWorkerService } from './start-worker-service.js';

describe('a worker service whose setup fails', () => {
  let fixture: MerchantTestDatabase;
  let redis: TestRedis;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    redis = await createTestRedis();
  });
  afterAll(async () => {
    await redis.close();
    await fixture.close();
  });

  it('rejects with its error and leaves no database connection open behind it', async () => {
    const connections = async () =>
      (
        await fixture.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
      )[0]!.n;
    const before = await connections();
    let released = 0;
    await expect(
      startWorkerService({
        service: 'failing-setup',
        env: testWorkerEnv(fixture, redis),
        internalPort: 0,
        logger: createLogger('failing-setup', 'silent'),
        setup: async (ctx) => {
          await ctx.db.$queryRaw`SELECT 1`;
          ctx.onRelease(async () => {
            released++;
          });
          throw new Error('port 3002 is taken');
        },
      }),
    ).rejects.toThrow('port 3002 is taken');
    expect(released).toBe(1);
    await waitFor(async () => (await connections()) <= before, {
      timeoutMs: 5_000,
      what: 'the service connections closed',
    });
  });
});
