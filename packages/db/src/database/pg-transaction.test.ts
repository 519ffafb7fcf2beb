import { createDb, type Db } from './client.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { NotRawStatementError, runPgTransaction } from './pg-transaction.js';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';

describe('a transaction on the pg pool (runPgTransaction)', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  const sent: string[] = [];
  beforeAll(async () => {
    fixture = await createDbTestDatabase();
    await fixture.db
      .$executeRaw`CREATE TABLE pg_tx_probe (id int PRIMARY KEY, n int8 NOT NULL, at timestamptz NOT NULL, doc jsonb)`;
    db = createDb({
      databaseUrl: fixture.database.url,
      poolSize: 2,
      transactionTimeoutMs: 400,
      onQuery: (q) => sent.push(q),
    });
  });
  afterAll(async () => {
    await db.$disconnect();
    await fixture.close();
  });
  const rows = () => fixture.db.$queryRaw<{ id: number }[]>`SELECT id FROM pg_tx_probe ORDER BY id`;

  it('commits its statements together, rows typed as Prisma types them, reported as a Prisma transaction is (statements, then COMMIT)', async () => {
    sent.length = 0;
    const at = new Date('2026-11-28T10:00:00.000Z');
    const read = await runPgTransaction(db, async (tx) => {
      await tx.$executeRaw`INSERT INTO pg_tx_probe VALUES (1, ${9_007_199_254_740_993n}::int8, ${at}::timestamptz, ${JSON.stringify({ a: 1 })}::jsonb)`;
      return tx.$queryRaw<
        { n: bigint; at: Date; doc: unknown }[]
      >`SELECT n, at, doc FROM pg_tx_probe WHERE id = ${1}::int`;
    });
    expect(read).toEqual([{ n: 9_007_199_254_740_993n, at, doc: { a: 1 } }]);
    expect(sent.map((q) => (q === 'COMMIT' ? q : 'statement'))).toEqual(['statement', 'statement', 'COMMIT']);
    expect(await rows()).toEqual([{ id: 1 }]);
  });

  it('keeps nothing when its work fails, and the connection serves the next transaction', async () => {
    await expect(
      runPgTransaction(db, async (tx) => {
        await tx.$executeRaw`INSERT INTO pg_tx_probe VALUES (2, 1, now(), NULL)`;
        await tx.$executeRaw`INSERT INTO pg_tx_probe VALUES (1, 1, now(), NULL)`;
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await rows()).toEqual([{ id: 1 }]);
    await runPgTransaction(db, (tx) => tx.$executeRaw`INSERT INTO pg_tx_probe VALUES (3, 1, now(), NULL)`);
    expect(await rows()).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it('refuses a model query, which would run outside it, and keeps nothing of what came before', async () => {
    await expect(
      runPgTransaction(db, async (tx) => {
        await tx.$executeRaw`INSERT INTO pg_tx_probe VALUES (4, 1, now(), NULL)`;
        await tx.outbox.count();
      }),
    ).rejects.toBeInstanceOf(NotRawStatementError);
    expect(await rows()).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it('bounds each statement by the transaction timeout: a lock held elsewhere fails it as unavailable, nothing kept', async () => {
    await fixture.db.$transaction(
      async (holder) => {
        await holder.$queryRaw`SELECT id FROM pg_tx_probe WHERE id = 1 FOR UPDATE`;
        const started = Date.now();
        const err = await runPgTransaction(db, async (tx) => {
          await tx.$executeRaw`INSERT INTO pg_tx_probe VALUES (5, 1, now(), NULL)`;
          await tx.$executeRaw`UPDATE pg_tx_probe SET n = 2 WHERE id = 1`;
        }).catch((e: unknown) => e);
        expect(err).toMatchObject({ code: '57014' });
        expect(isDatabaseUnavailable(err)).toBe(true);
        expect(Date.now() - started).toBeLessThan(5_000);
      },
      { timeout: 10_000 },
    );
    expect(await rows()).toEqual([{ id: 1 }, { id: 3 }]);
    // The bound was the transaction's own: the connection's next statement is not limited by it.
    await runPgTransaction(db, (tx) => tx.$queryRaw`SELECT current_setting('statement_timeout') AS t`).then((r) =>
      expect(r).toEqual([{ t: '400ms' }]),
    );
    const [outside] = await db.$queryRaw<{ t: string }[]>`SELECT current_setting('statement_timeout') AS t`;
    expect(outside!.t).toBe('0');
  });

  it("takes the smaller of the statement and transaction timeouts, the transaction's when statements have none", async () => {
    const boundOf = async (o: { statementTimeoutMs?: number; transactionTimeoutMs?: number }) => {
      const other = createDb({ databaseUrl: fixture.database.url, poolSize: 1, ...o });
      try {
        const [row] = await runPgTransaction(
          other,
          (tx) => tx.$queryRaw<{ t: string }[]>`SELECT current_setting('statement_timeout') AS t`,
        );
        return row!.t;
      } finally {
        await other.$disconnect();
      }
    };
    expect(await boundOf({ statementTimeoutMs: 300, transactionTimeoutMs: 700 })).toBe('300ms');
    expect(await boundOf({ statementTimeoutMs: 900, transactionTimeoutMs: 700 })).toBe('700ms');
    expect(await boundOf({ statementTimeoutMs: 0, transactionTimeoutMs: 700 })).toBe('700ms');
  });
});
