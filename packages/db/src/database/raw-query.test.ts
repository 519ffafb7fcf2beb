import { Prisma } from '../generated/prisma/client.js';
import { createDb, rawAccessOf } from './client.js';
import { runPgTransaction } from './pg-transaction.js';
import { MAX_NAMED_STATEMENTS, rawQuery, statementName } from './raw-query.js';
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
      const [second] = await rawQuery<{ pid: number; n: bigint }>(
        db,
        Prisma.sql`SELECT pg_backend_pid() AS pid, 7::int8 AS n`,
      );
      expect(second!.pid).not.toBe(first!.pid);
      expect(second!.n).toBe(7n);
    } finally {
      await db.$disconnect();
    }
  });

  const prepared = (db: ReturnType<typeof createDb>) =>
    rawAccessOf(db).pool.query<{ name: string; statement: string }>(
      'SELECT name, statement FROM pg_prepared_statements ORDER BY name',
    );

  it('prepares each statement text once per connection, under one name, then sends only its values (a pool of one connection)', async () => {
    const db = createDb({ databaseUrl: fixture.database.url, poolSize: 1 });
    try {
      const read = (v: number) => rawQuery<{ v: number }>(db, Prisma.sql`SELECT ${v}::int + 1 AS v`);
      expect([(await read(1))[0]!.v, (await read(2))[0]!.v, (await read(3))[0]!.v]).toEqual([2, 3, 4]);
      await runPgTransaction(db, (tx) => tx.$queryRaw`SELECT ${4}::int * 2 AS v`);
      const { rows } = await prepared(db);
      expect(rows).toEqual(
        [
          { name: statementName('SELECT $1::int + 1 AS v'), statement: 'SELECT $1::int + 1 AS v' },
          { name: statementName('SELECT $1::int * 2 AS v'), statement: 'SELECT $1::int * 2 AS v' },
        ].sort((a, b) => a.name!.localeCompare(b.name!)),
      );
    } finally {
      await db.$disconnect();
    }
  });

  it('prepares nothing by name through a transaction-mode pooler, where the next statement may run on another server connection', async () => {
    const db = createDb({ databaseUrl: fixture.database.url, poolSize: 1, pooling: 'transaction' });
    try {
      await rawQuery(db, Prisma.sql`SELECT ${1}::int - 1 AS v`);
      await runPgTransaction(db, (tx) => tx.$queryRaw`SELECT ${1}::int - 2 AS v`);
      expect((await prepared(db)).rows).toEqual([]);
    } finally {
      await db.$disconnect();
    }
  });
});

describe('statement names', () => {
  it('one name per distinct text, the same every time; unnamed past the bound', () => {
    const a = statementName('SELECT 1 AS name_test_a');
    expect(statementName('SELECT 1 AS name_test_a')).toBe(a);
    expect(statementName('SELECT 1 AS name_test_b')).not.toBe(a);
    for (let i = 0; i < MAX_NAMED_STATEMENTS; i++) statementName(`SELECT ${i} AS bound_test`);
    expect(statementName('SELECT 1 AS name_test_c')).toBeUndefined();
    expect(statementName('SELECT 1 AS name_test_a')).toBe(a);
  });
});
