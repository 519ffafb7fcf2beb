import pg from 'pg';
import { freePort } from '@mm/testing';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from './client.js';
import { CommitOutcomeUnknownError, isDatabaseUnavailable } from './database-unavailable.js';
import { Prisma } from './generated/prisma/client.js';
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
    const { err } = await failure(() => db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      const pid = row!.pid;
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await tx.$queryRaw`SELECT 1`;
    }));
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
    const held = new Promise<void>((r) => { release = r; });
    const holdsIt = new Promise<void>((r) => { holds = r; });
    const holding = db.$transaction(async (tx) => { await tx.$queryRaw`SELECT 1`; holds(); await held; }, { timeout: 10_000 });
    await holdsIt;
    try {
      for (const work of [() => rawQuery(db, Prisma.sql`SELECT 1`), () => db.$transaction(async (tx) => tx.merchant.count())]) {
        const { err, ms } = await failure(work);
        expect(isDatabaseUnavailable(err)).toBe(true);
        expect(ms).toBeLessThan(5_000);
      }
    } finally {
      release();
      await holding;
    }
  });

  it('the server\'s own refusals by SQLSTATE: too many connections, shutting down, starting up', () => {
    for (const code of ['53300', '57P01', '57P03', '08006']) {
      const err = Object.assign(new pg.DatabaseError('refused', 0, 'error'), { code });
      expect(isDatabaseUnavailable(err)).toBe(true);
    }
  });

  it('the connection lost once the work is done, while COMMIT is on its way: outcome unknown, not unavailable', async () => {
    const db = client();
    const { err } = await failure(() => runTransaction(db, async (tx) => {
      const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await admin.query('SELECT pg_terminate_backend($1)', [row!.pid]);
      // The server has closed the session by the time fn returns and Prisma sends COMMIT.
      await new Promise((r) => setTimeout(r, 200));
    }));
    expect(err).toBeInstanceOf(CommitOutcomeUnknownError);
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it('is false for the bugs that share a class with unavailability: a protocol violation, a transaction used after it ended, refused credentials', async () => {
    const protocol = Object.assign(new pg.DatabaseError('bind message supplies 1 parameters, but prepared statement requires 2', 0, 'error'), { code: '08P01' });
    const closed = new Prisma.PrismaClientKnownRequestError('Transaction API error: Transaction not found.', { code: 'P2028', clientVersion: '7' });
    const outOfTime = new Prisma.PrismaClientKnownRequestError('Transaction API error: Unable to start a transaction in the given time.', { code: 'P2028', clientVersion: '7' });
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
