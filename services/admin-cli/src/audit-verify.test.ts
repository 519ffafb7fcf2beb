import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createDb, type Db, type Tx } from '@mm/db';
import { recordAudit, type AuditEntry } from '@mm/db/staff';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { staffCreate } from './commands/staff-create.js';
import { CommandFailure, runCommand } from './run-command.js';
import { parseEnv } from './env.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

/**
 * Tampering as only a superuser (or the table's owner) can: with every trigger off for the transaction
 * (session_replication_role = replica), or the append-only trigger disabled. The tests connect as the
 * superuser postgres, as `pnpm start` does.
 */
function asReplica<T>(db: Db, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL session_replication_role = replica`;
    return change(tx);
  });
}

/** Puts a removed row back exactly as it was (no trigger runs under replica). */
function reinsert(db: Db, r: AuditEntry): Promise<number> {
  return asReplica(
    db,
    (tx) => tx.$executeRaw`
    INSERT INTO audit_log (id, staff_id, actor, action, target_type, target_id, before, after, request_id, ip, created_at, prev_hash, row_hash)
    OVERRIDING SYSTEM VALUE VALUES (${r.id}, ${r.staffId}::uuid, ${r.actor}, ${r.action}, ${r.targetType}, ${r.targetId},
      ${r.before === null ? null : JSON.stringify(r.before)}::jsonb, ${r.after === null ? null : JSON.stringify(r.after)}::jsonb,
      ${r.requestId}, ${r.ip}, ${r.createdAt}, ${r.prevHash}, ${r.rowHash})`,
  );
}

describe('pnpm admin audit:verify', () => {
  let database: TestDatabase;
  let db: Db;
  let rows: AuditEntry[];
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 4 });
    await staffCreate(db, { email: 'audited@example.test', name: 'Audited', role: 'admin' });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        recordAudit(db, {
          staffId: null,
          actor: `staff${i}@example.test`,
          action: 'merchant.disable',
          targetType: 'merchant',
          targetId: `m${i}`,
          before: { status: 'ACTIVE' },
          after: { status: 'DISABLED' },
          requestId: `req-${i}`,
          ip: '10.0.0.1',
        }),
      ),
    );
    rows = await db.auditEntry.findMany({ orderBy: { id: 'asc' } });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  const env = () => parseEnv({ DATABASE_URL: database.url });
  const verify = async (...args: string[]) =>
    JSON.parse(
      await runCommand(['audit:verify', '--json', ...args], env()).catch((err: unknown) => {
        if (err instanceof CommandFailure) return err.output;
        throw err;
      }),
    ) as {
      ok: boolean;
      rows: number;
      head: { id: string; rowHash: string } | null;
      firstBroken: { id: string; problem: string } | null;
    };
  const mid = () => rows[6]!;

  it('verifies the chain written by concurrent appends and prints its head', async () => {
    expect(await verify()).toEqual({
      ok: true,
      rows: 13,
      head: { id: String(rows[12]!.id), rowHash: rows[12]!.rowHash },
      firstBroken: null,
    });
    expect(await runCommand(['audit:verify'], env())).toMatch(
      new RegExp(`^audit log OK: 13 row\\(s\\), head #${rows[12]!.id} ${rows[12]!.rowHash}`),
    );
  });

  it('names a row changed behind the triggers, and the CLI process exits 1', async () => {
    await asReplica(
      db,
      (tx) => tx.$executeRaw`UPDATE audit_log SET actor = 'someone.else@example.test' WHERE id = ${mid().id}`,
    );
    try {
      expect((await verify()).firstBroken).toEqual({
        id: String(mid().id),
        problem: expect.stringMatching(/the row was changed/),
      });
      await expect(runCommand(['audit:verify'], env())).rejects.toThrow(CommandFailure);
      const child = run('node', ['--import', 'tsx', 'services/admin-cli/src/main.ts', 'audit:verify'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url },
      });
      await expect(child).rejects.toMatchObject({
        code: 1,
        stdout: expect.stringContaining(`audit log BROKEN at row #${mid().id}: `),
      });
    } finally {
      await asReplica(db, (tx) => tx.$executeRaw`UPDATE audit_log SET actor = ${mid().actor} WHERE id = ${mid().id}`);
    }
    expect((await verify()).ok).toBe(true);
  });

  it("names the next row when the changed row's own hash was recomputed too", async () => {
    await asReplica(db, async (tx) => {
      await tx.$executeRaw`UPDATE audit_log SET after = '{"status": "ACTIVE"}' WHERE id = ${mid().id}`;
      // The whole-row reference is the row as it now is: its new hash, with the database's own function.
      await tx.$executeRaw`UPDATE audit_log SET row_hash = audit_log_row_hash(prev_hash, audit_log) WHERE id = ${mid().id}`;
    });
    try {
      expect((await verify()).firstBroken).toEqual({
        id: String(rows[7]!.id),
        problem: expect.stringMatching(new RegExp(`row before \\(id ${mid().id}\\)`)),
      });
    } finally {
      await asReplica(
        db,
        (tx) =>
          tx.$executeRaw`UPDATE audit_log SET after = ${JSON.stringify(mid().after)}::jsonb, row_hash = ${mid().rowHash} WHERE id = ${mid().id}`,
      );
    }
    expect((await verify()).ok).toBe(true);
  });

  it('names the row after a removed one, and the first row when the oldest were removed (append-only trigger disabled)', async () => {
    const remove = (id: bigint) =>
      db.$transaction(async (tx) => {
        await tx.$executeRaw`ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change`;
        await tx.$executeRaw`DELETE FROM audit_log WHERE id = ${id}`;
        await tx.$executeRaw`ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change`;
      });
    await remove(mid().id);
    expect((await verify()).firstBroken).toEqual({
      id: String(rows[7]!.id),
      problem: expect.stringMatching(/removed, inserted or reordered/),
    });
    await reinsert(db, mid());
    await remove(rows[0]!.id);
    expect((await verify()).firstBroken).toEqual({
      id: String(rows[1]!.id),
      problem: expect.stringMatching(/oldest rows were removed/),
    });
    await reinsert(db, rows[0]!);
    expect((await verify()).ok).toBe(true);
  });

  it('with an anchor kept elsewhere, also sees the newest rows cut off and the whole chain recomputed (which alone it cannot)', async () => {
    const anchor = `${rows[12]!.id}:${rows[12]!.rowHash}`;
    expect(await verify('--anchor', anchor)).toMatchObject({ ok: true });
    await expect(runCommand(['audit:verify', '--anchor', 'nope'], env())).rejects.toThrow(/--anchor must be/);

    await asReplica(db, (tx) => tx.$executeRaw`DELETE FROM audit_log WHERE id = ${rows[12]!.id}`);
    expect((await verify()).ok).toBe(true);
    expect((await verify('--anchor', anchor)).firstBroken).toEqual({
      id: String(rows[12]!.id),
      problem: expect.stringMatching(/anchored row is missing/),
    });
    await reinsert(db, rows[12]!);

    // Someone able to switch the triggers off changes a row and recomputes every hash from there on.
    await asReplica(db, async (tx) => {
      await tx.$executeRaw`UPDATE audit_log SET actor = 'rewritten@example.test' WHERE id = ${mid().id}`;
      // DO blocks take no parameters: the id inlined (a bigint, safe to print).
      await tx.$executeRawUnsafe(`DO $$ DECLARE r audit_log; previous text; BEGIN
        FOR r IN SELECT * FROM audit_log WHERE id >= ${BigInt(mid().id)} ORDER BY id LOOP
          previous := coalesce(previous, r.prev_hash);
          UPDATE audit_log SET prev_hash = previous, row_hash = audit_log_row_hash(previous, r) WHERE id = r.id RETURNING row_hash INTO previous;
        END LOOP; END $$`);
    });
    expect((await verify()).ok).toBe(true);
    expect((await verify('--anchor', anchor)).firstBroken).toEqual({
      id: String(rows[12]!.id),
      problem: expect.stringMatching(/chain was rewritten/),
    });
  });
});
