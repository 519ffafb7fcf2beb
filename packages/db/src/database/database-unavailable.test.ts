import pg from 'pg';
import { freePort, startTcpRelay, waitFor } from '@mm/testing';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, rawAccessOf, type Db } from './client.js';
import { CommitOutcomeUnknownError, isDatabaseUnavailable } from './database-unavailable.js';
import { Prisma } from '../generated/prisma/client.js';
import { rawQuery } from './raw-query.js';
import { runTransaction } from './run-transaction.js';

/**
 * Each way a real PostgreSQL fails a request's work, produced here for real, is told apart from a
 * wrong request: the gateway answers the first kind 503 with Retry-After and the second 500 (or 4xx).
 */
describe('isDatabaseUnavailable', () => {
  let database: TestDatabase;
  let admin: pg.Client;
  const clients: Db[] = [];
  const client = (o: Omit<Parameters<typeof createDb>[0], 'databaseUrl'> & { databaseUrl?: string } = {}) => {
    const db = createDb({ databaseUrl: database.url, poolSize: 2, ...o });
    clients.push(db);
    return db;
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query('CREATE TABLE rows_to_lock (id int PRIMARY KEY)');
    await admin.query('INSERT INTO rows_to_lock VALUES (1)');
  });
  afterAll(async () => {
    for (const db of clients) await db.$disconnect();
    await admin.end();
    await database.drop();
  });

  /** The error `work` fails with, and how long it took. */
  async function failure(work: () => Promise<unknown>): Promise<{ err: unknown; ms: number }> {
    const started = Date.now();
    try {
      await work();
    } catch (err) {
      return { err, ms: Date.now() - started };
    }
    throw new Error('expected the work to fail');
  }

  it('a server nobody listens on: a model query, a raw query and a transaction', async () => {
    const url = new URL(database.url);
    url.port = String(await freePort());
    const db = client({ databaseUrl: url.toString() });
    for (const work of [
      () => db.merchant.findFirst(),
      () => rawQuery(db, Prisma.sql`SELECT 1`),
      () => db.$transaction(async (tx) => tx.merchant.count()),
    ]) {
      const { err } = await failure(work);
      expect(isDatabaseUnavailable(err)).toBe(true);
    }
  });

  it('the session terminated by the server in the middle of a transaction', async () => {
    const db = client();
    const { err } = await failure(() =>
      db.$transaction(async (tx) => {
        const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        const pid = row!.pid;
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await tx.$queryRaw`SELECT 1`;
      }),
    );
    expect(isDatabaseUnavailable(err)).toBe(true);
    // The pool replaced the dead connection: the next query works.
    await expect(db.merchant.count()).resolves.toEqual(expect.any(Number));
  });

  it('a row another transaction holds: fails after lock_timeout, in a model query and on the pg pool', async () => {
    const db = client({ lockTimeoutMs: 200 });
    await admin.query('BEGIN');
    try {
      await admin.query('SELECT id FROM rows_to_lock WHERE id = 1 FOR UPDATE');
      for (const work of [
        () => db.$transaction(async (tx) => tx.$executeRaw`UPDATE rows_to_lock SET id = 1 WHERE id = 1`),
        () => rawQuery(db, Prisma.sql`UPDATE rows_to_lock SET id = 1 WHERE id = 1`),
      ]) {
        const { err, ms } = await failure(work);
        expect(isDatabaseUnavailable(err)).toBe(true);
        expect(ms).toBeLessThan(5_000);
      }
    } finally {
      await admin.query('ROLLBACK');
    }
  });

  it('a statement past statement_timeout', async () => {
    const db = client({ statementTimeoutMs: 200 });
    const { err } = await failure(() => db.$queryRaw`SELECT pg_sleep(3)`);
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it('no connection free in the pool within the connect timeout', async () => {
    const db = client({ poolSize: 1, connectTimeoutMs: 200 });
    let release: () => void = () => undefined;
    let holds: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const holdsIt = new Promise<void>((r) => {
      holds = r;
    });
    const holding = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        holds();
        await held;
      },
      { timeout: 10_000 },
    );
    await holdsIt;
    try {
      for (const work of [
        () => rawQuery(db, Prisma.sql`SELECT 1`),
        () => db.$transaction(async (tx) => tx.merchant.count()),
      ]) {
        const { err, ms } = await failure(work);
        expect(isDatabaseUnavailable(err)).toBe(true);
        expect(ms).toBeLessThan(5_000);
      }
    } finally {
      release();
      await holding;
    }
  });

  it('a connection checked out of the pool, with no query running, whose session the server ends: the process lives on, its next query fails as unavailable', async () => {
    const db = client();
    const conn = await rawAccessOf(db).pool.connect();
    try {
      const { rows } = await conn.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      // The server's FATAL arrives while nothing runs on the connection: without a listener of the
      // client's own, node throws it as an unhandled 'error' event and this suite dies.
      await new Promise((r) => setTimeout(r, 300));
      const err = await conn.query('SELECT 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      conn.release(true);
    }
    await expect(rawQuery(db, Prisma.sql`SELECT 1`)).resolves.toHaveLength(1);
  });

  it("the server's own refusals by SQLSTATE: too many connections, shutting down, starting up", () => {
    for (const code of ['53300', '57P01', '57P03', '08006']) {
      const err = Object.assign(new pg.DatabaseError('refused', 0, 'error'), { code });
      expect(isDatabaseUnavailable(err)).toBe(true);
    }
  });

  /** A runTransaction whose session the server ends once its work is done, before Prisma's COMMIT reaches it. */
  const lostBeforeCommit = (db: Db, options: Parameters<typeof runTransaction>[2] = {}) =>
    failure(() =>
      runTransaction(
        db,
        async (tx) => {
          await tx.$executeRaw`CREATE TABLE IF NOT EXISTS in_doubt (id int)`;
          await tx.$executeRaw`INSERT INTO in_doubt VALUES (1)`;
          const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          await admin.query('SELECT pg_terminate_backend($1)', [row!.pid]);
          // The server has closed the session by the time fn returns and Prisma sends COMMIT.
          await new Promise((r) => setTimeout(r, 200));
        },
        options,
      ),
    );

  it("the connection lost while COMMIT is on its way: unavailable by default (the caller's work is idempotent)", async () => {
    const { err } = await lostBeforeCommit(client());
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it('asked about when resolveInDoubtCommit: PostgreSQL says it was rolled back, so it is unavailable, and nothing was written', async () => {
    const db = client();
    const { err } = await lostBeforeCommit(db, { resolveInDoubtCommit: true });
    expect(err).not.toBeInstanceOf(CommitOutcomeUnknownError);
    expect(isDatabaseUnavailable(err)).toBe(true);
    const exists = await admin.query(`SELECT to_regclass('in_doubt') AS t`);
    expect(exists.rows[0].t).toBeNull();
  });

  /** A table of its own, a client through a relay, and a run that inserts one row and is cut at its COMMIT. */
  async function inDoubtSetup(table: string) {
    const target = new URL(database.url);
    const relay = await startTcpRelay(Number(target.port || 5432));
    target.port = String(relay.port);
    const sent: string[] = [];
    const db = client({ databaseUrl: target.toString(), onQuery: (q) => sent.push(q) });
    const statusQuestions = () => sent.filter((q) => q.includes('txid_status')).length;
    await admin.query(`CREATE TABLE ${table} (id int)`);
    const rows = async () => (await admin.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
    const run = (options: Parameters<typeof runTransaction>[2], forwardAfterMs: number) =>
      runTransaction(
        db,
        async (tx) => {
          await tx.$executeRawUnsafe(`INSERT INTO ${table} VALUES (1)`);
          relay.cutAfterClientSends((chunk) => chunk.includes('COMMIT'), { forwardAfterMs });
          return 'the refund';
        },
        options,
      );
    return { relay, rows, run, statusQuestions };
  }

  it('asked about when resolveInDoubtCommit: a COMMIT the server carried out while its client lost the connection is a success, with its result', async () => {
    const { relay, rows, run } = await inDoubtSetup('committed_in_doubt');
    try {
      // Without asking, the loss is all the caller learns, although the row was committed.
      const lost = await failure(() => run({}, 0));
      expect(isDatabaseUnavailable(lost.err)).toBe(true);
      await expect(run({ resolveInDoubtCommit: true }, 0)).resolves.toBe('the refund');
      expect(await rows()).toBe(2);
    } finally {
      await relay.close();
    }
  });

  it('asked about when resolveInDoubtCommit: a COMMIT still on its way when its client asks is waited for, and its result returned', async () => {
    const { relay, rows, run, statusQuestions } = await inDoubtSetup('committed_late');
    try {
      // Asked at once, PostgreSQL says "in progress": the COMMIT reaches the server 1.5 s after the cut,
      // within a wait longer than the default, so that a slow machine runs out of neither.
      await expect(run({ resolveInDoubtCommit: true, inDoubtWaitMs: 10_000 }, 1_500)).resolves.toBe('the refund');
      expect(await rows()).toBe(1);
      // The first answer was "in progress": it was asked again.
      expect(statusQuestions()).toBeGreaterThanOrEqual(2);
    } finally {
      await relay.close();
    }
  });

  it('asked about when resolveInDoubtCommit: a transaction still in progress after inDoubtWaitMs is an unknown outcome, not a failure', async () => {
    const { relay, rows, run } = await inDoubtSetup('committed_too_late');
    try {
      const { err } = await failure(() => run({ resolveInDoubtCommit: true, inDoubtWaitMs: 100 }, 3_000));
      expect(err).toBeInstanceOf(CommitOutcomeUnknownError);
      expect(await rows()).toBe(0);
      // And "unknown" was the right answer: the COMMIT arrives and is carried out.
      await waitFor(async () => (await rows()) === 1 || undefined, { timeoutMs: 10_000 });
    } finally {
      await relay.close();
    }
  });

  it('CommitOutcomeUnknownError, when the outcome cannot be learnt, is not unavailable', () => {
    expect(isDatabaseUnavailable(new CommitOutcomeUnknownError(new Error('Connection terminated unexpectedly')))).toBe(
      false,
    );
  });

  it('is false for the bugs that share a class with unavailability: a protocol violation, a transaction used after it ended, refused credentials', async () => {
    const protocol = Object.assign(
      new pg.DatabaseError('bind message supplies 1 parameters, but prepared statement requires 2', 0, 'error'),
      { code: '08P01' },
    );
    const closed = new Prisma.PrismaClientKnownRequestError('Transaction API error: Transaction not found.', {
      code: 'P2028',
      clientVersion: '7',
    });
    const outOfTime = new Prisma.PrismaClientKnownRequestError(
      'Transaction API error: Unable to start a transaction in the given time.',
      { code: 'P2028', clientVersion: '7' },
    );
    const credentials = new Prisma.PrismaClientInitializationError('Authentication failed', '7', 'P1000');
    expect([protocol, closed, credentials].map((e) => isDatabaseUnavailable(e))).toEqual([false, false, false]);
    expect(isDatabaseUnavailable(outOfTime)).toBe(true);
  });

  it('is false for a wrong request or a bug', async () => {
    const db = client();
    const unique = await failure(() => db.$executeRaw`INSERT INTO rows_to_lock VALUES (1)`);
    const syntax = await failure(() => rawQuery(db, Prisma.sql`SELEC 1`));
    for (const err of [unique.err, syntax.err, new Error('a bug'), new TypeError('x is undefined'), null, 'text']) {
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
  });
});
