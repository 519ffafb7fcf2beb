/**
 * A database per suite, cloned from a migrated template: `CREATE DATABASE … TEMPLATE` copies what the
 * migrations made instead of running them all again for every suite.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb, type Db, listMigrations, migrate, MIGRATIONS_DIR } from '@mm/db';
import type { NewCashin } from '@mm/db/payments';
import type { NewPaymentLink } from '@mm/db/payment-links';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const TEMPLATE_PREFIX = 'mm_template_';
// Any constant, the same for every process making a template; not migrate()'s own key.
const TEMPLATE_LOCK_KEY = 72707370;

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function asAdmin<T>(work: (admin: pg.Client) => Promise<T>, adminUrl = ADMIN_URL): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function testDatabase(name: string, adminUrl = ADMIN_URL): TestDatabase {
  return {
    name,
    url: withDatabase(adminUrl, name),
    drop: () =>
      asAdmin(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }, adminUrl),
  };
}

export interface ServerOptions {
  /** Another server than TEST_DATABASE_ADMIN_URL's (a cluster a chaos suite breaks on purpose): its admin database. */
  adminUrl?: string;
}

export interface TemplateOptions extends ServerOptions {
  migrationsDir?: string;
  /** Templates of other migration sets under this prefix are dropped when a new one is made. */
  prefix?: string;
}

async function templateName(migrationsDir: string, prefix: string): Promise<string> {
  const hash = createHash('sha256');
  for (const m of await listMigrations(migrationsDir)) hash.update(`${m.name}\0${m.checksum}\n`);
  return `${prefix}${hash.digest('hex').slice(0, 12)}`;
}

/**
 * Creates database `clone` from the template of the current migrations. The template is named from
 * their contents and made when missing, once: the jest workers that start together all miss it, one
 * makes it under the advisory lock while the others wait, then they find it made. Clones take the
 * lock shared, so a checkout with other migrations, making its own template, never drops this one
 * between the look-up and the clone. `created` says whether this call made the template.
 */
export async function cloneMigratedTemplate(
  clone: string,
  options: TemplateOptions = {},
): Promise<{ template: string; created: boolean }> {
  const { migrationsDir = MIGRATIONS_DIR, prefix = TEMPLATE_PREFIX, adminUrl = ADMIN_URL } = options;
  const template = await templateName(migrationsDir, prefix);
  return asAdmin(async (admin) => {
    // IS_TEMPLATE is set last, so it also says the migrations all ran: a maker may have died half-way.
    const ready = async () =>
      (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate`, [template])).rowCount === 1;
    // Released with the connection too, should a query fail.
    const unlock = (shared: '' | '_shared') =>
      admin.query(`SELECT pg_advisory_unlock${shared}($1)`, [TEMPLATE_LOCK_KEY]).catch(() => undefined);
    let created = false;
    for (;;) {
      await admin.query('SELECT pg_advisory_lock_shared($1)', [TEMPLATE_LOCK_KEY]);
      try {
        if (await ready()) {
          await admin.query(`CREATE DATABASE ${clone} TEMPLATE ${template}`);
          return { template, created };
        }
      } finally {
        await unlock('_shared');
      }

      await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
      try {
        if (!(await ready())) {
          // Stale templates, and a half-made one of this name: only the newest migrations are cloned.
          const { rows } = await admin.query<{ datname: string }>(
            `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
            [prefix],
          );
          for (const { datname } of rows) {
            await admin.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
            await admin.query(`DROP DATABASE ${datname} WITH (FORCE)`);
          }
          await admin.query(`CREATE DATABASE ${template}`);
          // migrate() closes its connection before it returns: a clone fails while anyone is connected to its template.
          await migrate(withDatabase(adminUrl, template), migrationsDir);
          await admin.query(`ALTER DATABASE ${template} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
          created = true;
        }
      } finally {
        await unlock('');
      }
    }
  }, adminUrl);
}

/** A fresh, migrated database for one test suite; `drop()` removes it. */
export async function createTestDatabase(options: ServerOptions = {}): Promise<TestDatabase> {
  const database = testDatabase(`mm_test_${randomBytes(6).toString('hex')}`, options.adminUrl);
  await cloneMigratedTemplate(database.name, { adminUrl: options.adminUrl });
  return database;
}

/** An empty database (no migrations), for testing the migration runner itself. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const database = testDatabase(`mm_test_${randomBytes(6).toString('hex')}`);
  await asAdmin((admin) => admin.query(`CREATE DATABASE ${database.name}`));
  return database;
}

export interface MigrationFixture {
  database: TestDatabase;
  /** Applies every migration before the one under test. */
  migrateBefore(): Promise<void>;
  /** Applies the one under test; resolves the names applied (that one alone). */
  migrateIt(): Promise<string[]>;
  /** Drops the database and the copy of the migrations. */
  close(): Promise<void>;
}

/**
 * An empty database for the test of one migration: migrated up to just before it, rows of the old shape
 * written by the test, then the migration applied on them. The migrations are copied into a directory of
 * their own, so the runner sees only those applied so far.
 */
export async function createMigrationFixture(migration: string): Promise<MigrationFixture> {
  const database = await createEmptyDatabase();
  const dir = await mkdtemp(path.join(tmpdir(), 'mm-migrations-'));
  const copy = (name: string) => cp(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  return {
    database,
    async migrateBefore() {
      for (const { name } of await listMigrations()) if (name < migration) await copy(name);
      await migrate(database.url, dir);
    },
    async migrateIt() {
      await copy(migration);
      return (await migrate(database.url, dir)).applied;
    },
    async close() {
      await rm(dir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

export interface DbTestDatabase {
  database: TestDatabase;
  db: Db;
  /** Disconnects the client and drops the database. */
  close(): Promise<void>;
}

/** A fresh, migrated, empty database and a client on it: the start of a db-level test that seeds its own rows. */
export async function createDbTestDatabase(poolSize = 2): Promise<DbTestDatabase> {
  const database = await createTestDatabase();
  const db = createDb({ databaseUrl: database.url, poolSize });
  return {
    database,
    db,
    async close() {
      await db.$disconnect();
      await database.drop();
    },
  };
}

export interface MerchantTestDatabase extends DbTestDatabase {
  merchantId: string;
}

/** A fresh database with the seed subsidiaries and one merchant (no webhook URL): the usual start of a db-level test. */
export async function createMerchantTestDatabase(poolSize = 2): Promise<MerchantTestDatabase> {
  const fixture = await createDbTestDatabase(poolSize);
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(fixture.db, s);
  const merchantId = (await createMerchant(fixture.db, { name: 'M', webhookUrl: null })).id;
  return { ...fixture, merchantId };
}

/** A cash-in of 1 000 XOF in Côte d'Ivoire to a number the simulator confirms, `order` as its order id and fingerprint. */
export function cashinInput(merchantId: string, order: string, overrides: Partial<NewCashin> = {}): NewCashin {
  return {
    merchantId,
    merchantOrderId: order,
    amount: 1000,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000001',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: order,
    ...overrides,
  };
}

/** A single-use payment link of 1 000 XOF in Côte d'Ivoire, as the API writes one. */
export function linkInput(merchantId: string, overrides: Partial<NewPaymentLink> = {}): NewPaymentLink {
  return {
    merchantId,
    description: 'Robe wax taille M',
    countryCode: 'CI',
    currency: 'XOF',
    amount: { kind: 'fixed', amount: 1000 },
    reusable: false,
    maxPayments: 1,
    expiresAt: null,
    redirectUrl: null,
    metadata: null,
    ...overrides,
  };
}

/** A second client on a test database that records the text of every statement it sends (how many a step costs). */
export function countingClient(url: string, poolSize = 2): { db: Db; statements: string[] } {
  const statements: string[] = [];
  return { db: createDb({ databaseUrl: url, poolSize, onQuery: (q) => statements.push(q) }), statements };
}

/**
 * The plans PostgreSQL keeps for a statement when they were made on a small table never analysed (a
 * deployment's first minutes), looked at once the table has grown: autovacuum off on `table`, so no
 * ANALYZE re-plans meanwhile, and a client of one connection whose statements take their generic plan
 * from the first run on (what the plan cache otherwise decides by their sixth). `rowsRead()`: the rows
 * of `table` read so far, by scans and through indexes; `close()` gives autovacuum back.
 */
export interface SmallTablePlans {
  /** One connection, generic plans from each statement's first run. */
  db: Db;
  rowsRead(): Promise<number>;
  close(): Promise<void>;
}

export async function smallTablePlans(
  fixture: Pick<DbTestDatabase, 'db' | 'database'>,
  table: string,
): Promise<SmallTablePlans> {
  await fixture.db.$executeRawUnsafe(`ALTER TABLE ${table} SET (autovacuum_enabled = off)`);
  const url = new URL(fixture.database.url);
  url.searchParams.set('options', '-c plan_cache_mode=force_generic_plan');
  const db = createDb({ databaseUrl: url.toString(), poolSize: 1 });
  return {
    db,
    async rowsRead() {
      await db.$executeRaw`SELECT pg_stat_force_next_flush()`;
      const [row] = await fixture.db.$queryRaw<{ n: bigint }[]>`
        SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_user_tables WHERE relname = ${table}`;
      return Number(row!.n);
    },
    async close() {
      await db.$disconnect();
      await fixture.db.$executeRawUnsafe(`ALTER TABLE ${table} RESET (autovacuum_enabled)`);
    },
  };
}
