/** Test fixture (used by this package's own tests, re-exported by @mm/testing): a database per suite. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from './client.js';
import { createMerchant } from './merchants.js';
import { migrate } from './migrate.js';
import { SEED_SUBSIDIARIES, upsertSubsidiary } from './subsidiaries.js';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

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

/** A fresh, migrated database for one test suite; `drop()` removes it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `mm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(ADMIN_URL, name);
  await migrate(url);
  return {
    name,
    url,
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** An empty database (no migrations), for testing the migration runner itself. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const name = `mm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
  return {
    name,
    url: withDatabase(ADMIN_URL, name),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => c.end());
    },
  };
}

export interface MerchantTestDatabase {
  database: TestDatabase;
  db: Db;
  merchantId: string;
  close(): Promise<void>;
}

/** A fresh database with the seed subsidiaries and one merchant (no webhook URL): the usual start of a db-level test. */
export async function createMerchantTestDatabase(poolSize = 2): Promise<MerchantTestDatabase> {
  const database = await createTestDatabase();
  const db = createDb({ databaseUrl: database.url, poolSize });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  const merchantId = (await createMerchant(db, { name: 'M', webhookUrl: null })).id;
  return {
    database, db, merchantId,
    async close() {
      await db.$disconnect();
      await database.drop();
    },
  };
}
