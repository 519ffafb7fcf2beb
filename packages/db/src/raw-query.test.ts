import { Prisma } from './generated/prisma/client.js';
import { createDb, rawAccessOf } from './client.js';
import { rawQuery } from './raw-query.js';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';

describe('the pg pool of a client', () => {
  let fixture: DbTestDatabase;
  beforeAll(async () => {
    fixture = await createDbTestDatabase();
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('survives the server ending its idle connections (a restart, pg_terminate_backend): the next statement opens a new one', async () => {
    const db = createDb({ databaseUrl: fixture.database.url, poolSize: 2 });
    try {
      const [first] = await rawQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid`);
      const { pool } = rawAccessOf(db);
      expect(pool.idleCount).toBe(1);
      await fixture.db.$queryRaw`SELECT pg_terminate_backend(${first!.pid}::int)`;
      // The pool hears of it (an 'error' on the idle client) and drops it; with no listener this would end the process.
      const deadline = Date.now() + 5_000;
      while (pool.totalCount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(pool.totalCount).toBe(0);
      const [second] = await rawQuery<{ pid: number; n: bigint }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid, 7::int8 AS n`);
      expect(second!.pid).not.toBe(first!.pid);
      expect(second!.n).toBe(7n);
    } finally {
      await db.$disconnect();
    }
  });
});
