import pg from 'pg';
import { common, databaseOptions, Joi, parseEnv } from '@mm/config';
import { startTcpRelay, waitFor } from '@mm/testing';
import { PgBouncer } from '@mm/testing/pgbouncer';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import {
  configurationErrorsOf,
  createDb,
  type Db,
  isDatabaseUnavailable,
  connectionTimeouts,
  POOLING_MISMATCH_PROBLEM,
} from '../database/index.js';
import { createServiceDb } from './demo-data.js';
import {
  createCashin,
  createExportPool,
  exportConnections,
  streamTransactionExport,
  type ExportedTransaction,
  readTransactionStatus,
} from '../payments/index.js';

/**
 * The database client behind a real PgBouncer in transaction pooling mode (`pnpm test:engines`): each
 * transaction, and each statement outside one, may run on another server connection than the last.
 */
describe('through PgBouncer in transaction pooling mode', () => {
  let fixture: MerchantTestDatabase;
  let bouncer: PgBouncer;
  const opened: Db[] = [];
  const pooled = async (timeouts: { statementTimeoutMs: number; lockTimeoutMs: number }, poolSize = 8) => {
    const db = createDb({
      databaseUrl: await bouncer.url({ dbname: fixture.database.name, ...timeouts }),
      poolSize,
      pooling: 'transaction',
      ...timeouts,
    });
    opened.push(db);
    return db;
  };

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    // Fewer server connections than the client has: its connections take turns on them.
    bouncer = await PgBouncer.start({ poolSize: 3 });
  });
  afterAll(async () => {
    for (const db of opened) await db.$disconnect();
    await bouncer?.stop();
    await fixture?.close();
  });

  it("status reads (the hot path's one prepared read) answer from any server connection", async () => {
    const db = await pooled({ statementTimeoutMs: 2000, lockTimeoutMs: 1000 });
    const created = await createCashin(db, {
      merchantId: fixture.merchantId,
      merchantOrderId: 'pooled-1',
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'fp',
    });
    const id = created.transaction.id;
    // Reads asked for in one turn share a statement: spread over turns, they make many statements, each on
    // whichever server connection the pooler gives it.
    const reads = (
      await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          await new Promise((resolve) => setTimeout(resolve, i % 6));
          return Promise.all(Array.from({ length: 5 }, () => readTransactionStatus(db, id, fixture.merchantId)));
        }),
      )
    ).flat();
    expect(reads).toHaveLength(300);
    expect(new Set(reads.map((r) => r?.id))).toEqual(new Set([id]));
  });

  it("an export reads for longer than its pooler entry's statement timeout (the gateway's): it runs in a read-only transaction of its own without one", async () => {
    const timeouts = { statementTimeoutMs: 300, lockTimeoutMs: 300 };
    const db = await pooled(timeouts);
    for (let i = 0; i < 4; i++) {
      await createCashin(db, {
        merchantId: fixture.merchantId,
        merchantOrderId: `export-${i}`,
        amount: 1000,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250707000001',
        motif: null,
        returnUrl: null,
        notifyUrl: null,
        metadata: null,
        requestFingerprint: 'fp',
      });
    }
    const pool = createExportPool({ databaseUrl: await bouncer.url({ dbname: fixture.database.name, ...timeouts }) });
    try {
      const rows: ExportedTransaction[] = [];
      const started = Date.now();
      const stream = streamTransactionExport(
        exportConnections(pool, null),
        { merchantId: fixture.merchantId, from: new Date(0), until: new Date(Date.now() + 86_400_000) },
        { batchSize: 1 },
      );
      // A merchant reading slowly: the download lasts several times the statement timeout.
      for await (const row of stream) {
        rows.push(row as ExportedTransaction);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(Date.now() - started).toBeGreaterThan(3 * timeouts.statementTimeoutMs);
      expect(rows.filter((r) => r.merchantOrderId.startsWith('export-')).map((r) => r.merchantOrderId)).toEqual([
        'export-0',
        'export-1',
        'export-2',
        'export-3',
      ]);
      // Its connection went back to the pool with the transaction ended: the next statement on it runs
      // with the entry's timeout again (inside a transaction left open it would still read 0).
      expect(pool.idleCount).toBe(1);
      expect(
        (await pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout,
      ).toBe('300ms');
    } finally {
      await pool.end();
    }
  });

  it("a lock wait ends at the lock_timeout the pooler's connections carry, as the database unavailable (a 503)", async () => {
    const db = await pooled({ statementTimeoutMs: 5000, lockTimeoutMs: 300 });
    expect(await connectionTimeouts(db)).toEqual({ statementTimeoutMs: 5000, lockTimeoutMs: 300 });
    const holder = new pg.Client({ connectionString: fixture.database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM merchants WHERE id = $1 FOR UPDATE', [fixture.merchantId]);
      const started = Date.now();
      const err = await db.merchant.update({ where: { id: fixture.merchantId }, data: { name: 'renamed' } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(err)).toBe(true);
      // Cut by lock_timeout (300 ms), long before statement_timeout (5 s) would.
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect((await fixture.db.merchant.findUniqueOrThrow({ where: { id: fixture.merchantId } })).name).toBe('M');
  });

  it('a service refuses to start behind a pooler whose connections lack its timeouts, and starts behind one that has them', async () => {
    const want = { statementTimeoutMs: 2000, lockTimeoutMs: 1000 };
    const bare = await bouncer.url({ dbname: fixture.database.name, statementTimeoutMs: 0, lockTimeoutMs: 0 });
    await expect(
      createServiceDb({
        databaseUrl: bare,
        pooling: 'transaction',
        ...want,
        nodeEnv: 'test',
        deploymentMode: 'sandbox',
        secretBox: null,
      }),
    ).rejects.toThrow(
      /statement_timeout 0 ms and lock_timeout 0 ms.*DB_STATEMENT_TIMEOUT_MS=2000 and DB_LOCK_TIMEOUT_MS=1000.*connect_query/,
    );
    const right = await bouncer.url({ dbname: fixture.database.name, ...want });
    const db = await createServiceDb({
      databaseUrl: right,
      pooling: 'transaction',
      ...want,
      nodeEnv: 'test',
      deploymentMode: 'sandbox',
      secretBox: null,
    });
    opened.push(db);
    expect(await connectionTimeouts(db)).toEqual(want);
  });

  describe('a service told what DATABASE_URL is', () => {
    const commonSchema = Joi.object(common);
    /** The cash-in's creation, the hot path's first named statement, `n` at once. */
    const createCashins = (db: Db, prefix: string, n: number) =>
      Promise.allSettled(
        Array.from({ length: n }, (_, i) =>
          createCashin(db, {
            merchantId: fixture.merchantId,
            merchantOrderId: `${prefix}-${i}`,
            amount: 1000,
            currency: 'XOF',
            countryCode: 'CI',
            msisdn: '+2250707000001',
            motif: null,
            returnUrl: null,
            notifyUrl: null,
            metadata: null,
            requestFingerprint: 'fp',
          }),
        ),
      );
    const refusals = (results: PromiseSettledResult<unknown>[]) =>
      results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));

    it("by Prisma's ?pgbouncer=true alone (no DB_POOLING): its pool prepares nothing by name, and 50 cash-ins at once are all created", async () => {
      const entry = await bouncer.url({ dbname: fixture.database.name, statementTimeoutMs: 0, lockTimeoutMs: 0 });
      const env = parseEnv(commonSchema, {
        DATABASE_URL: `${entry}?pgbouncer=true`,
        DATABASE_DIRECT_URL: fixture.database.url,
        DB_POOL_SIZE: '8',
      });
      expect(env.DB_POOLING).toBe('transaction');
      const db = await createServiceDb({
        ...databaseOptions(env),
        nodeEnv: 'test',
        deploymentMode: 'sandbox',
        secretBox: null,
      });
      opened.push(db);
      const results = await createCashins(db, 'flagged', 50);
      expect(refusals(results)).toEqual([]);
      const ids = results.map(
        (r) => (r as PromiseFulfilledResult<{ transaction: { id: string } }>).value.transaction.id,
      );
      const reads = await Promise.all(ids.map((id) => readTransactionStatus(db, id, fixture.merchantId)));
      expect(reads.map((r) => r?.status)).toEqual(ids.map(() => 'CREATED'));
    });

    it('nothing said (DB_POOLING=direct by default): statements prepared by name fail on the server connections they meet, and the pool says once that DB_POOLING is wrong', async () => {
      const entry = await bouncer.url({ dbname: fixture.database.name, statementTimeoutMs: 0, lockTimeoutMs: 0 });
      const env = parseEnv(commonSchema, { DATABASE_URL: entry, DB_POOL_SIZE: '8' });
      expect(env.DB_POOLING).toBe('direct');
      const told: { problem: string; err: Error }[] = [];
      const db = await createServiceDb({
        ...databaseOptions(env),
        nodeEnv: 'test',
        deploymentMode: 'sandbox',
        secretBox: null,
        onMisconfiguration: (problem, err) => told.push({ problem, err }),
      });
      opened.push(db);
      const refused = refusals(await createCashins(db, 'unflagged', 50));
      // What was seen: most cash-ins answered 500 (a named statement unknown on, or already on, the server connection).
      expect(refused.length).toBeGreaterThan(0);
      for (const err of refused) expect(['26000', '42P05']).toContain((err as pg.DatabaseError).code);
      expect(told.map((t) => t.problem)).toEqual([POOLING_MISMATCH_PROBLEM]);
      expect(told[0]!.problem).toMatch(
        /configuration error.*pooler in transaction mode.*DB_POOLING=direct.*Set DB_POOLING=transaction and DATABASE_DIRECT_URL.*pgbouncer=true/,
      );
      expect(refused).toContain(told[0]!.err);
      expect(configurationErrorsOf(db)).toBe(refused.length);
    });
  });

  it('PostgreSQL gone from behind the pooler: each query fails as unavailable within the bound, never waits for it, and passes once it is back', async () => {
    // The pooler's path to PostgreSQL goes through a relay the test cuts, as when the server's host goes away.
    const relay = await startTcpRelay(5432);
    const behind = await PgBouncer.start({ upstream: { host: '127.0.0.1', port: relay.port } });
    const timeouts = { statementTimeoutMs: 2000, lockTimeoutMs: 1000 };
    const db = createDb({
      databaseUrl: await behind.url({ dbname: fixture.database.name, ...timeouts }),
      poolSize: 2,
      pooling: 'transaction',
      ...timeouts,
    });
    try {
      expect(await db.merchant.count()).toBe(1);
      await relay.cut();
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const err = await db.merchant.count().then(
          () => null,
          (e: unknown) => e,
        );
        // Its first query waits for query_wait_timeout (2 s); the next ones are refused at once (server_login_retry).
        expect({ unavailable: isDatabaseUnavailable(err), withinBound: Date.now() - started < 4000 }).toEqual({
          unavailable: true,
          withinBound: true,
        });
      }
      await relay.restore();
      await waitFor(async () => (await db.merchant.count().catch(() => null)) === 1 || undefined, {
        what: 'queries served again through the pooler',
        timeoutMs: 10_000,
      });
    } finally {
      await db.$disconnect();
      await behind.stop();
      await relay.close();
    }
  });
});
