import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { listMigrations } from '@mm/db';
import { cloneMigratedTemplate, createTestDatabase, type TestDatabase } from './test-database.js';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
// Not the real prefix: these tests make and drop templates of their own, never the one other suites clone.
const PREFIX = 'mm_fixturetest_';
// Outside PREFIX, or making a new template would drop them too.
const CLONE = 'mm_fixtureclone_';

let admin: pg.Client;
let dir: string;

async function addMigration(name: string, sql: string) {
  await mkdir(path.join(dir, name));
  await writeFile(path.join(dir, name, 'migration.sql'), sql);
}

async function databases(prefix: string) {
  const { rows } = await admin.query<{ datname: string; datistemplate: boolean; datallowconn: boolean }>(
    'SELECT datname, datistemplate, datallowconn FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname',
    [prefix],
  );
  return rows;
}

async function migrationsIn(database: string): Promise<string[]> {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    const { rows } = await c.query<{ migration_name: string }>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name',
    );
    return rows.map((r) => r.migration_name);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  dir = await mkdtemp(path.join(tmpdir(), 'mm-template-'));
  await addMigration('20260101000000_one', 'CREATE TABLE one (x int)');
});
afterAll(async () => {
  for (const { datname } of [...(await databases(PREFIX)), ...(await databases(CLONE))]) {
    await admin.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
    await admin.query(`DROP DATABASE ${datname} WITH (FORCE)`);
  }
  await admin.end();
  await rm(dir, { recursive: true, force: true });
});

describe('the migrated template', () => {
  it('is made by exactly one of many clones at once; the others wait and clone it', async () => {
    const clones = ['a', 'b', 'c', 'd'].map((c) => `${CLONE}${c}`);
    const made = await Promise.all(clones.map((c) => cloneMigratedTemplate(c, { migrationsDir: dir, prefix: PREFIX })));
    expect(new Set(made.map((m) => m.template)).size).toBe(1);
    expect(made.filter((m) => m.created)).toHaveLength(1);
    expect(made[0]!.template).toMatch(new RegExp(`^${PREFIX}[0-9a-f]{12}$`));
    expect(await databases(PREFIX)).toEqual([{ datname: made[0]!.template, datistemplate: true, datallowconn: false }]);
    for (const c of clones) expect(await migrationsIn(c)).toEqual(['20260101000000_one']);
  });

  it('is made anew when a migration is added, and the stale one dropped', async () => {
    const before = await cloneMigratedTemplate(`${CLONE}e`, { migrationsDir: dir, prefix: PREFIX });
    await addMigration('20260102000000_two', 'CREATE TABLE two (y int)');
    const after = await cloneMigratedTemplate(`${CLONE}f`, { migrationsDir: dir, prefix: PREFIX });
    expect(after).toMatchObject({ created: true });
    expect(after.template).not.toBe(before.template);
    expect((await databases(PREFIX)).map((t) => t.datname)).toEqual([after.template]);
    expect(await migrationsIn(`${CLONE}f`)).toEqual(['20260101000000_one', '20260102000000_two']);
  });

  it('is made again when its maker died before marking it a template', async () => {
    const { template } = await cloneMigratedTemplate(`${CLONE}g`, { migrationsDir: dir, prefix: PREFIX });
    await admin.query(`ALTER DATABASE ${template} WITH IS_TEMPLATE false ALLOW_CONNECTIONS true`);
    expect(await cloneMigratedTemplate(`${CLONE}h`, { migrationsDir: dir, prefix: PREFIX })).toEqual({
      template,
      created: true,
    });
    expect(await databases(PREFIX)).toEqual([{ datname: template, datistemplate: true, datallowconn: false }]);
  });
});

describe('createTestDatabase', () => {
  let database: TestDatabase;
  afterAll(() => database?.drop());

  it('gives a suite a database of its own with every migration applied', async () => {
    database = await createTestDatabase();
    expect(database.name).toMatch(/^mm_test_[0-9a-f]{12}$/);
    expect(await migrationsIn(database.name)).toEqual((await listMigrations()).map((m) => m.name));
  });
});
