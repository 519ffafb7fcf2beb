import { createDb, type Db, isUniqueViolation } from '../database/index.js';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createStaffUser, findStaffByEmail, findStaffById, listStaff, setStaffDisabled } from './staff.js';
import { listAudit, recordAudit } from './audit-log.js';
import { verifyPassword } from './staff-password.js';
import { createMerchant } from '../merchants/index.js';
import { createMerchantUser } from '../merchant-users/index.js';

describe('staff users and the audit log', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 3 });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  describe('staff', () => {
    it('stores the email lower-cased, the password hashed, and finds the account whatever the case typed', async () => {
      const created = await createStaffUser(db, {
        email: '  Ada@Example.COM ',
        name: 'Ada',
        role: 'admin',
        password: 'a long password',
      });
      expect(created).toMatchObject({ email: 'ada@example.com', name: 'Ada', role: 'admin', disabledAt: null });
      expect(created).not.toHaveProperty('passwordHash');
      const found = await findStaffByEmail(db, 'ADA@example.com');
      expect(found?.id).toBe(created.id);
      expect(found?.passwordHash).toMatch(/^scrypt\$/);
      await expect(verifyPassword('a long password', found!.passwordHash)).resolves.toBe(true);
      expect(await findStaffById(db, created.id)).toEqual(created);
      expect(await findStaffById(db, 'not-a-uuid')).toBeNull();
      expect(await findStaffByEmail(db, 'nobody@example.com')).toBeNull();
    });

    it('refuses a second account with the same email in another case', async () => {
      await createStaffUser(db, { email: 'bob@example.com', name: 'Bob', role: 'viewer', password: 'pw-bob-123456' });
      const err = await createStaffUser(db, {
        email: 'BOB@example.com',
        name: 'Bob 2',
        role: 'viewer',
        password: 'pw',
      }).catch((e: unknown) => e);
      expect(isUniqueViolation(err)).toBe(true);
    });

    it('disables and re-enables an account, returning before and after', async () => {
      const s = await createStaffUser(db, {
        email: 'carl@example.com',
        name: 'Carl',
        role: 'approver',
        password: 'pw-carl-123456',
      });
      const off = await setStaffDisabled(db, s.id, true);
      expect(off?.before.disabledAt).toBeNull();
      expect(off?.after.disabledAt).toBeInstanceOf(Date);
      const on = await setStaffDisabled(db, s.id, false);
      expect(on?.after.disabledAt).toBeNull();
      expect(await setStaffDisabled(db, '00000000-0000-4000-8000-000000000000', true)).toBeNull();
      expect((await listStaff(db)).map((x) => x.email)).toContain('carl@example.com');
    });
  });

  describe('audit log', () => {
    it('commits with the action it records, and rolls back with it', async () => {
      const s = await createStaffUser(db, {
        email: 'dora@example.com',
        name: 'Dora',
        role: 'admin',
        password: 'pw-dora-123456',
      });
      const victim = await createStaffUser(db, {
        email: 'eve@example.com',
        name: 'Eve',
        role: 'viewer',
        password: 'pw-eve-1234567',
      });
      const actor = { staffId: s.id, actor: s.email, requestId: 'req-1', ip: '127.0.0.1' };

      await expect(
        db.$transaction(async (tx) => {
          const change = await setStaffDisabled(tx, victim.id, true);
          await recordAudit(tx, {
            ...actor,
            action: 'staff.disable',
            targetType: 'staff',
            targetId: victim.id,
            ...change,
          });
          throw new Error('something after failed');
        }),
      ).rejects.toThrow('something after failed');
      expect((await findStaffById(db, victim.id))?.disabledAt).toBeNull();
      expect((await listAudit(db, { limit: 10, targetType: 'staff', targetId: victim.id })).entries).toHaveLength(0);

      await db.$transaction(async (tx) => {
        const change = await setStaffDisabled(tx, victim.id, true);
        await recordAudit(tx, {
          ...actor,
          action: 'staff.disable',
          targetType: 'staff',
          targetId: victim.id,
          ...change,
        });
      });
      const [row] = (await listAudit(db, { limit: 10, targetType: 'staff', targetId: victim.id })).entries;
      expect(row).toMatchObject({
        staffId: s.id,
        actor: 'dora@example.com',
        action: 'staff.disable',
        requestId: 'req-1',
        ip: '127.0.0.1',
      });
      expect(row!.before).toMatchObject({ email: 'eve@example.com', disabledAt: null });
      expect((row!.after as { disabledAt: string }).disabledAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    });

    it('converts bigints, redacts secrets by key name, stores absent before/after as NULL', async () => {
      const row = await recordAudit(db, {
        staffId: null,
        actor: 'someone@example.com',
        action: 'key.create',
        after: { apiKey: 'pk_1', apiSecret: 'sk_never', nested: { password: 'p', amount: 10n } },
      });
      expect(row.after).toEqual({
        apiKey: 'pk_1',
        apiSecret: '[redacted]',
        nested: { password: '[redacted]', amount: '10' },
      });
      expect(row.before).toBeNull();
      expect(row.targetType).toBeNull();
    });

    it('pages newest first with a keyset cursor, filtered by target', async () => {
      for (let i = 0; i < 5; i++) {
        await recordAudit(db, {
          staffId: null,
          actor: 'pager@example.com',
          action: `step.${i}`,
          targetType: 'pager',
          targetId: 'p1',
        });
      }
      await recordAudit(db, {
        staffId: null,
        actor: 'pager@example.com',
        action: 'other',
        targetType: 'pager',
        targetId: 'p2',
      });
      const first = await listAudit(db, { limit: 2, targetType: 'pager', targetId: 'p1' });
      expect(first.entries.map((e) => e.action)).toEqual(['step.4', 'step.3']);
      const second = await listAudit(db, {
        limit: 2,
        targetType: 'pager',
        targetId: 'p1',
        beforeId: String(first.nextBeforeId),
      });
      expect(second.entries.map((e) => e.action)).toEqual(['step.2', 'step.1']);
      const last = await listAudit(db, {
        limit: 2,
        targetType: 'pager',
        targetId: 'p1',
        beforeId: second.nextBeforeId!,
      });
      expect(last.entries.map((e) => e.action)).toEqual(['step.0']);
      expect(last.nextBeforeId).toBeNull();
      await expect(listAudit(db, { limit: 2, beforeId: '1; DROP' })).rejects.toThrow(RangeError);
    });

    it('filters by actor (normalised like a login email), alone or with a target, and pages within the filter', async () => {
      for (const actor of ['fay@example.com', 'gus@example.com', 'fay@example.com', 'fay@example.com']) {
        await recordAudit(db, {
          staffId: null,
          actor,
          action: 'actor.test',
          targetType: 'actor-test',
          targetId: actor === 'gus@example.com' ? 't2' : 't1',
        });
      }
      const fay = await listAudit(db, { limit: 2, actor: '  FAY@Example.com ' });
      expect(fay.entries.map((e) => e.actor)).toEqual(['fay@example.com', 'fay@example.com']);
      const rest = await listAudit(db, { limit: 2, actor: 'fay@example.com', beforeId: fay.nextBeforeId! });
      expect(rest.entries.map((e) => e.actor)).toEqual(['fay@example.com']);
      expect(rest.nextBeforeId).toBeNull();
      expect(
        (await listAudit(db, { limit: 10, actor: 'gus@example.com', targetType: 'actor-test', targetId: 't1' }))
          .entries,
      ).toEqual([]);
      expect(
        (await listAudit(db, { limit: 10, actor: 'gus@example.com', targetType: 'actor-test', targetId: 't2' }))
          .entries,
      ).toHaveLength(1);
      expect((await listAudit(db, { limit: 10, actor: 'nobody@example.com' })).entries).toEqual([]);
    });

    it("lists one merchant's own rows only, by user and by action, newest first and paged", async () => {
      const shop = (await createMerchant(db, { name: 'Audit shop', webhookUrl: null })).id;
      const other = (await createMerchant(db, { name: 'Other audit shop', webhookUrl: null })).id;
      const user = (id: string, email: string) =>
        createMerchantUser(db, { merchantId: id, email, name: 'U', role: 'owner', password: 'a password here' });
      const awa = await user(shop, 'awa@audit.test');
      const ben = await user(shop, 'ben@audit.test');
      const eve = await user(other, 'eve@audit.test');
      const row = (u: { id: string; merchantId: string; email: string }, action: string) =>
        recordAudit(db, { staffId: null, actor: u.email, action, merchantId: u.merchantId, merchantUserId: u.id });
      await row(awa, 'portal.login');
      await row(eve, 'portal.login');
      await recordAudit(db, { staffId: null, actor: 'staff@example.com', action: 'portal.login' });
      await row(ben, 'portal.login');
      await row(awa, 'portal.logout');

      const all = await listAudit(db, { limit: 10, merchantId: shop });
      expect(all.entries.map((e) => [e.actor, e.action])).toEqual([
        ['awa@audit.test', 'portal.logout'],
        ['ben@audit.test', 'portal.login'],
        ['awa@audit.test', 'portal.login'],
      ]);
      const firstPage = await listAudit(db, { limit: 2, merchantId: shop });
      const secondPage = await listAudit(db, { limit: 2, merchantId: shop, beforeId: firstPage.nextBeforeId! });
      expect(secondPage.entries.map((e) => e.id)).toEqual([all.entries[2]!.id]);
      expect(secondPage.nextBeforeId).toBeNull();
      expect(
        (await listAudit(db, { limit: 10, merchantId: shop, merchantUserId: awa.id })).entries.map((e) => e.action),
      ).toEqual(['portal.logout', 'portal.login']);
      expect(
        (await listAudit(db, { limit: 10, merchantId: shop, action: 'portal.login' })).entries.map((e) => e.actor),
      ).toEqual(['ben@audit.test', 'awa@audit.test']);
      // Another merchant's user asked for within this merchant's log: nothing.
      expect((await listAudit(db, { limit: 10, merchantId: shop, merchantUserId: eve.id })).entries).toEqual([]);
    });

    it('refuses UPDATE and DELETE, through Prisma and in plain SQL', async () => {
      const row = await recordAudit(db, { staffId: null, actor: 'x@example.com', action: 'login_failed' });
      await expect(db.auditEntry.update({ where: { id: row.id }, data: { action: 'login' } })).rejects.toThrow(
        /append-only/,
      );
      await expect(db.$executeRaw`UPDATE audit_log SET actor = 'someone else' WHERE id = ${row.id}`).rejects.toThrow(
        /append-only/,
      );
      await expect(db.$executeRaw`DELETE FROM audit_log WHERE id = ${row.id}`).rejects.toThrow(/append-only/);
      await expect(db.auditEntry.deleteMany({})).rejects.toThrow(/append-only/);
      expect(await db.auditEntry.findUnique({ where: { id: row.id } })).toMatchObject({
        actor: 'x@example.com',
        action: 'login_failed',
      });
    });
  });
});
