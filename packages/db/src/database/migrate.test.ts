import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { createEmptyDatabase, type TestDatabase } from '@mm/testing/test-database';
import { migrate, listMigrations } from './migrate.js';

describe('migration runner', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createEmptyDatabase();
  });
  afterEach(async () => {
    await db.drop();
  });

  it('records each migration in _prisma_migrations as prisma migrate deploy does, and is idempotent', async () => {
    const first = await migrate(db.url);
    const all = await listMigrations();
    expect(first.applied).toEqual(all.map((m) => m.name));
    const second = await migrate(db.url);
    expect(second).toEqual({ applied: [], alreadyApplied: all.map((m) => m.name) });

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    await c.end();
    expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(
      all.map((m) => [m.name, createHash('sha256').update(m.sql).digest('hex'), 1]),
    );
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
  });

  it('refuses a migration edited after it was applied, and rolls back a failing one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mm-migrations-'));
    try {
      await mkdir(path.join(dir, '001_a'));
      await writeFile(path.join(dir, '001_a', 'migration.sql'), 'CREATE TABLE a (id int);');
      await migrate(db.url, dir);
      await writeFile(path.join(dir, '001_a', 'migration.sql'), 'CREATE TABLE a (id bigint);');
      await expect(migrate(db.url, dir)).rejects.toThrow(/edited after it was applied/);

      await writeFile(path.join(dir, '001_a', 'migration.sql'), 'CREATE TABLE a (id int);');
      await mkdir(path.join(dir, '002_bad'));
      await writeFile(path.join(dir, '002_bad', 'migration.sql'), 'CREATE TABLE b (id int); SELECT * FROM nowhere;');
      await expect(migrate(db.url, dir)).rejects.toThrow(/002_bad failed/);
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const { rows } = await c.query(
        `SELECT to_regclass('b') AS b, (SELECT count(*) FROM "_prisma_migrations" WHERE migration_name = '002_bad')::int AS n`,
      );
      await c.end();
      expect(rows[0]).toEqual({ b: null, n: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
