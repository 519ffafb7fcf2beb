import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { listMigrations } from '@mm/db/migrate';
import { createTestDatabase, migratedTemplate, type TestDatabase } from './test-database.js';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
// Not the real prefix: these tests make and drop templates of their own, never the one other suites clone.
const PREFIX = 'mm_fixturetest_';

let admin: pg.Client;
let dir: string;

async function addMigration(name: string, sql: string) {
  await mkdir(path.join(dir, name));
  await writeFile(path.join(dir, name, 'migration.sql'), sql);
}

async function templates() {
  const { rows } = await admin.query<{ datname: string; datistemplate: boolean; datallowconn: boolean }>(
    'SELECT datname, datistemplate, datallowconn FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname', [PREFIX]);
  return rows;
}

beforeAll(async () => {
  admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  dir = await mkdtemp(path.join(tmpdir(), 'mm-template-'));
  await addMigration('20260101000000_one', 'CREATE TABLE one (x int)');
});
afterAll(async () => {
  for (const { datname } of await templates()) {
    await admin.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
    await admin.query(`DROP DATABASE ${datname} WITH (FORCE)`);
  }
  await admin.end();
  await rm(dir, { recursive: true, force: true });
});

describe('the migrated template', () => {
  it('is made by exactly one of many callers at once; the others find it made', async () => {
    const made = await Promise.all(Array.from({ length: 4 }, () => migratedTemplate({ migrationsDir: dir, prefix: PREFIX })));
    expect(new Set(made.map((m) => m.name)).size).toBe(1);
    expect(made.filter((m) => m.created)).toHaveLength(1);
    expect(made[0]!.name).toMatch(new RegExp(`^${PREFIX}[0-9a-f]{12}$`));
    expect(await templates()).toEqual([{ datname: made[0]!.name, datistemplate: true, datallowconn: false }]);
  });

  it('can be cloned at once: nothing stays connected to it', async () => {
    const { name } = await migratedTemplate({ migrationsDir: dir, prefix: PREFIX });
    const clone = `${PREFIX}clone`;
    await admin.query(`CREATE DATABASE ${clone} TEMPLATE ${name}`);
    try {
      const url = new URL(ADMIN_URL);
      url.pathname = `/${clone}`;
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      const { rows } = await c.query('SELECT migration_name FROM "_prisma_migrations"').finally(() => c.end());
      expect(rows).toEqual([{ migration_name: '20260101000000_one' }]);
    } finally {
      await admin.query(`DROP DATABASE ${clone} WITH (FORCE)`);
    }
  });

  it('is made anew when a migration is added, and the stale one dropped', async () => {
    const before = await migratedTemplate({ migrationsDir: dir, prefix: PREFIX });
    await addMigration('20260102000000_two', 'CREATE TABLE two (y int)');
    const after = await migratedTemplate({ migrationsDir: dir, prefix: PREFIX });
    expect(after).toMatchObject({ created: true });
    expect(after.name).not.toBe(before.name);
    expect((await templates()).map((t) => t.datname)).toEqual([after.name]);
  });

  it('is made again when a creator died before marking it a template', async () => {
    const { name } = await migratedTemplate({ migrationsDir: dir, prefix: PREFIX });
    await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false ALLOW_CONNECTIONS true`);
    expect(await migratedTemplate({ migrationsDir: dir, prefix: PREFIX })).toEqual({ name, created: true });
    expect(await templates()).toEqual([{ datname: name, datistemplate: true, datallowconn: false }]);
  });
});

describe('createTestDatabase', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  it('gives a suite a database of its own with every migration applied', async () => {
    database = await createTestDatabase();
    const c = new pg.Client({ connectionString: database.url });
    await c.connect();
    const { rows } = await c.query<{ migration_name: string }>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name').finally(() => c.end());
    expect(rows.map((r) => r.migration_name)).toEqual((await listMigrations()).map((m) => m.name));
  });
});
