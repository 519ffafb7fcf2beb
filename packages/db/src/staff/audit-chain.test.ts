/** The audit log's hash chain as the database writes it, checked by this package's own recomputation. */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditRowHash, canonicalAuditRow, GENESIS_HASH, verifyAuditChain } from './audit-chain.js';
import { recordAudit } from './audit-log.js';
import { createDb, type Db, migrate, MIGRATIONS_DIR } from '../database/index.js';
import { createStaffUser } from './staff.js';
import { createEmptyDatabase, createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';

const CHAIN_MIGRATION = '20261125100100_audit_log_hash_chain';

describe('audit_log hash chain', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createDbTestDatabase(8);
    ({ db } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('stays one linear chain under concurrent appends from many connections and transactions', async () => {
    // As many writers as connections (more would only queue for the pool): each alternates a single
    // append with a transaction of two appends with work between them (the lock is held to the commit).
    const writer = async (w: number) => {
      for (let i = 0; i < 15; i++) {
        if (i % 2 === 0) {
          await recordAudit(db, { staffId: null, actor: `w${w}.${i}@example.test`, action: 'concurrent.single' });
          continue;
        }
        await db.$transaction(async (tx) => {
          await recordAudit(tx, { staffId: null, actor: `w${w}.${i}@example.test`, action: 'concurrent.first' });
          await tx.$queryRaw`SELECT count(*) FROM staff_users`;
          await recordAudit(tx, { staffId: null, actor: `w${w}.${i}@example.test`, action: 'concurrent.second' });
        });
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));

    const report = await verifyAuditChain(db, { batchSize: 7 });
    expect(report).toMatchObject({ ok: true, rows: 8 * (8 + 7 * 2), firstBroken: null });
    const rows = await db.auditEntry.findMany({ orderBy: { id: 'asc' } });
    expect(report.head).toEqual({ id: String(rows.at(-1)!.id), rowHash: rows.at(-1)!.rowHash });
    expect(rows[0]!.prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.prevHash).toBe(rows[i - 1]!.rowHash);
      // Stamped under the lock by the database: never earlier than the row before.
      expect(rows[i]!.createdAt.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.createdAt.getTime());
    }
    // Both rows of a transaction are in the chain, in their order (others may not come between them: the lock is held).
    const p0 = rows.filter((r) => r.actor === 'w0.1@example.test');
    expect(p0.map((r) => r.action)).toEqual(['concurrent.first', 'concurrent.second']);
    expect(p0[1]!.prevHash).toBe(p0[0]!.rowHash);
  });

  it('hashes in the database exactly as this package does, whatever the values (nulls, Unicode, JSON, separators)', async () => {
    const staff = await createStaffUser(db, {
      email: 'hash.check@example.test',
      name: 'H',
      role: 'viewer',
      password: 'a long password',
    });
    const odd = ['', '~', '3:abc', '|', 'Ünïcödé ✓ 🚀 e\u0301', 'line\nbreak\ttab "quote" \\ back', "O'Brien"];
    for (const text of odd) {
      await recordAudit(db, {
        staffId: staff.id,
        actor: text || 'x',
        action: text,
        targetType: text,
        targetId: text,
        requestId: text,
        ip: text,
        before: { text, n: 1.5, big: 12345678901234567890n, list: [null, true, { 'k é': text }] },
        after: text,
      });
    }
    await recordAudit(db, { staffId: null, actor: 'nulls@example.test', action: 'all.null' });
    const report = await verifyAuditChain(db);
    expect(report.ok).toBe(true);
  });

  it('hashes a merchant portal row (v2) in the database as this package does, and a changed merchant breaks the chain', async () => {
    const [merchant] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO merchants (name) VALUES ('Chain shop') RETURNING id::text`;
    const [user] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO merchant_users (merchant_id, email, name, role, password_hash)
      VALUES (${merchant!.id}::uuid, 'owner@chain.test', 'O', 'owner', 'x') RETURNING id::text`;
    const [other] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO merchants (name) VALUES ('Other shop') RETURNING id::text`;
    const row = await recordAudit(db, {
      staffId: null,
      actor: 'owner@chain.test',
      action: 'portal.login',
      merchantId: merchant!.id,
      merchantUserId: user!.id,
    });
    expect(row.merchantId).toBe(merchant!.id);
    expect((await verifyAuditChain(db)).ok).toBe(true);
    // As the table's owner would (the application's role cannot): the row moved to another merchant's log.
    await db.$executeRawUnsafe('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change');
    await db.$executeRaw`UPDATE audit_log SET merchant_id = ${other!.id}::uuid WHERE id = ${row.id}`;
    await db.$executeRawUnsafe('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change');
    const report = await verifyAuditChain(db);
    expect(report.firstBroken).toEqual({ id: String(row.id), problem: expect.stringMatching(/content/) });
    await db.$executeRawUnsafe('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change');
    await db.$executeRaw`UPDATE audit_log SET merchant_id = ${merchant!.id}::uuid WHERE id = ${row.id}`;
    await db.$executeRawUnsafe('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change');
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it('keeps field boundaries unambiguous in the canonical form', () => {
    const base = {
      id: '1',
      staff_id: null,
      actor: 'a',
      action: 'bc',
      target_type: null,
      target_id: null,
      before: null,
      after: null,
      request_id: null,
      ip: null,
      created_ms: '0',
      merchant_id: null,
      merchant_user_id: null,
    };
    const variants = [
      base,
      { ...base, actor: 'ab', action: 'c' },
      { ...base, target_type: '' },
      { ...base, target_type: '~' },
      { ...base, target_id: '' },
      { ...base, merchant_id: 'm', merchant_user_id: null },
      { ...base, merchant_id: null, merchant_user_id: 'm' },
    ];
    // Rows without a merchant keep the form they were hashed in before the portal's columns existed.
    expect(canonicalAuditRow(GENESIS_HASH, base)).toMatch(/^audit_log\/v1\|/);
    expect(canonicalAuditRow(GENESIS_HASH, variants[5]!)).toMatch(/^audit_log\/v2\|/);
    expect(new Set(variants.map((v) => canonicalAuditRow(GENESIS_HASH, v))).size).toBe(variants.length);
    expect(auditRowHash(GENESIS_HASH, base)).not.toBe(auditRowHash('1'.repeat(64), base));
  });

  it('replaces what a client sends for id, created_at and the hashes', async () => {
    const [{ last }] = await db.$queryRaw<{ last: bigint }[]>`SELECT max(id) AS last FROM audit_log`.then(
      (r) => r as [{ last: bigint }],
    );
    const [row] = await db.$queryRaw<{ id: bigint; created_at: Date; prev_hash: string; row_hash: string }[]>`
      INSERT INTO audit_log (id, actor, action, created_at, prev_hash, row_hash) OVERRIDING SYSTEM VALUE
      VALUES (1, 'forger@example.test', 'forged', '2000-01-01', ${'f'.repeat(64)}, ${'e'.repeat(64)})
      RETURNING id, created_at, prev_hash, row_hash`;
    expect(row!.id).toBeGreaterThan(last);
    expect(row!.created_at.getFullYear()).toBeGreaterThan(2000);
    expect(row!.prev_hash).not.toBe('f'.repeat(64));
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it('refuses an append under REPEATABLE READ or SERIALIZABLE, whose snapshot could miss the last row and fork the chain', async () => {
    for (const isolationLevel of ['RepeatableRead', 'Serializable'] as const) {
      await expect(
        db.$transaction((tx) => recordAudit(tx, { staffId: null, actor: 'rr@example.test', action: 'isolation' }), {
          isolationLevel,
        }),
      ).rejects.toThrow(/READ COMMITTED/);
    }
    expect(await db.auditEntry.count({ where: { actor: 'rr@example.test' } })).toBe(0);
  });

  it('chains the rows already there when the migration runs, in id order', async () => {
    const older = await mkdtemp(path.join(tmpdir(), 'mm-migrations-'));
    const empty = await createEmptyDatabase();
    const olderDb = createDb({ databaseUrl: empty.url, poolSize: 2 });
    try {
      for (const name of (await readdir(MIGRATIONS_DIR)).filter((n) => /^\d+_/.test(n) && n < CHAIN_MIGRATION)) {
        await cp(path.join(MIGRATIONS_DIR, name), path.join(older, name), { recursive: true });
      }
      await migrate(empty.url, older);
      for (const [i, text] of ['first', 'Ünïcödé', '', 'last'].entries()) {
        await olderDb.$executeRaw`INSERT INTO audit_log (actor, action, after, created_at) VALUES (${`old${i}@example.test`}, ${text}, ${JSON.stringify({ i, text })}::jsonb, now() - interval '1 day')`;
      }
      expect((await migrate(empty.url)).applied).toContain(CHAIN_MIGRATION);
      expect(await verifyAuditChain(olderDb)).toMatchObject({ ok: true, rows: 4 });
      await recordAudit(olderDb, { staffId: null, actor: 'new@example.test', action: 'after.migration' });
      expect(await verifyAuditChain(olderDb)).toMatchObject({ ok: true, rows: 5 });
    } finally {
      await olderDb.$disconnect();
      await empty.drop();
      await rm(older, { recursive: true, force: true });
    }
  });
});
