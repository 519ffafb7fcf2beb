import { Prisma } from '../generated/prisma/client.js';
import { isRetryableTransactionError, runTransaction } from './run-transaction.js';
import type { Db } from './client.js';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';

describe('runTransaction', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createDbTestDatabase(4);
    ({ db } = fixture);
    await db.$executeRawUnsafe('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
    await db.$executeRawUnsafe('INSERT INTO counters VALUES (1, 0), (2, 0)');
    // Like the ledger's balances (ledger.ts): a row inserted now bumps its counter while the transaction commits.
    await db.$executeRawUnsafe('CREATE TABLE bumps (counter int NOT NULL)');
    await db.$executeRawUnsafe(`CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE counters SET n = n + 1 WHERE id = NEW.counter; RETURN NULL; END $$`);
    await db.$executeRawUnsafe(
      'CREATE CONSTRAINT TRIGGER bumps_at_commit AFTER INSERT ON bumps DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump()',
    );
  });
  afterAll(async () => {
    await fixture.close();
  });

  /** Two transactions locking rows 1 and 2 in opposite orders, each waiting for the other: PostgreSQL kills one. */
  async function deadlockingPair(
    run: (fn: Parameters<typeof runTransaction<void>>[1]) => Promise<void>,
    atCommit = false,
  ) {
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothLocked = new Promise<void>((r) => {
      release = r;
    });
    const attempts = { a: 0, b: 0 };
    const side = (first: number, second: number, name: 'a' | 'b') =>
      run(async (tx) => {
        attempts[name]++;
        await tx.$executeRaw`UPDATE counters SET n = n + 1 WHERE id = ${first}`;
        // Only the first attempts meet; a retry goes straight through.
        if (attempts[name] === 1) {
          if (++arrived === 2) release();
          await bothLocked;
        }
        // At commit: each side's COMMIT waits for the row the other holds, and PostgreSQL fails one COMMIT.
        if (atCommit) await tx.$executeRaw`INSERT INTO bumps VALUES (${second})`;
        else await tx.$executeRaw`UPDATE counters SET n = n + 1 WHERE id = ${second}`;
      });
    const results = await Promise.allSettled([side(1, 2, 'a'), side(2, 1, 'b')]);
    return { results, attempts };
  }

  it('a deadlock is retryable; run through runTransaction both sides commit, each once', async () => {
    const before = await db.$queryRaw<{ n: number }[]>`SELECT sum(n)::int AS n FROM counters`;
    const plain = await deadlockingPair((fn) => db.$transaction(fn));
    const rejected = plain.results.filter((r) => r.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(isRetryableTransactionError((rejected[0] as PromiseRejectedResult).reason)).toBe(true);

    const retried: unknown[] = [];
    const withRetry = await deadlockingPair((fn) => runTransaction(db, fn, { onRetry: (err) => retried.push(err) }));
    expect(withRetry.results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(retried).toHaveLength(1);
    expect(withRetry.attempts.a + withRetry.attempts.b).toBe(3);
    // Plain: one side committed (2 rows); with retries: both (4 rows). Nothing counted twice.
    const after = await db.$queryRaw<{ n: number }[]>`SELECT sum(n)::int AS n FROM counters`;
    expect(after[0]!.n - before[0]!.n).toBe(2 + 4);
  });

  it('a deadlock raised by COMMIT (a deferred trigger) is retryable too; run through runTransaction both sides commit', async () => {
    const before = await db.$queryRaw<{ n: number }[]>`SELECT sum(n)::int AS n FROM counters`;
    const plain = await deadlockingPair((fn) => db.$transaction(fn), true);
    const rejected = plain.results.filter((r) => r.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(isRetryableTransactionError((rejected[0] as PromiseRejectedResult).reason)).toBe(true);

    const withRetry = await deadlockingPair((fn) => runTransaction(db, fn), true);
    expect(withRetry.results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const after = await db.$queryRaw<{ n: number }[]>`SELECT sum(n)::int AS n FROM counters`;
    expect(after[0]!.n - before[0]!.n).toBe(2 + 4);
  });

  it.each([
    ['P2028', false],
    ['P2034', true],
    ['P2024', false],
    ['P2002', false],
    ['P2025', false],
  ])('a client error %s is retryable: %s', (code, retryable) => {
    expect(
      isRetryableTransactionError(new Prisma.PrismaClientKnownRequestError('x', { code, clientVersion: '7' })),
    ).toBe(retryable);
  });

  it('does not retry other errors, and gives up after its retries', async () => {
    let runs = 0;
    await expect(
      runTransaction(db, async () => {
        runs++;
        throw new Error('a bug');
      }),
    ).rejects.toThrow('a bug');
    expect(runs).toBe(1);

    runs = 0;
    const deadlock = await deadlockingPair((fn) => db.$transaction(fn));
    const conflict = (deadlock.results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    await expect(
      runTransaction(
        db,
        async () => {
          runs++;
          throw conflict;
        },
        { retries: 2, baseDelayMs: 1 },
      ),
    ).rejects.toBe(conflict);
    expect(runs).toBe(3);
  });
});
