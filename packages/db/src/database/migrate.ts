import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/**
 * packages/db/prisma/migrations seen from this file (src/database/), or prisma/migrations beside the
 * dist/ of a service image, where infra/docker/bundle.mjs puts them: the bundle runs from another depth.
 */
export const MIGRATIONS_DIR =
  ['../../prisma/migrations', '../prisma/migrations']
    .map((relative) => path.resolve(HERE, relative))
    .find((dir) => existsSync(dir)) ?? path.resolve(HERE, '../../prisma/migrations');

// The same table `prisma migrate deploy` keeps, so the engine and this runner stay interchangeable.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<{ name: string; sql: string; checksum: string }[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/** Applies pending migrations in order; refuses to run over an edited or half-applied migration. */
export async function migrate(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const m of await listMigrations(dir)) {
      const row = done.get(m.name);
      if (row) {
        if (!row.finished_at)
          throw new Error(`migration ${m.name} failed earlier; repair the database before migrating`);
        if (row.checksum !== m.checksum) throw new Error(`migration ${m.name} was edited after it was applied`);
        result.alreadyApplied.push(m.name);
        continue;
      }
      await client.query('BEGIN');
      try {
        const id = randomUUID();
        await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)', [
          id,
          m.checksum,
          m.name,
        ]);
        await client.query(m.sql);
        await client.query(
          'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
          [id],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
