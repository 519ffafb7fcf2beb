/**
 * audit_log against the roles that may touch it: the application's role (`mm_app`, by privilege) and a
 * superuser (by trigger). The login role is made in the test, as production makes one per service
 * (docs/backoffice.md); roles are cluster-wide, so it gets a name of its own and is dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db, migrate, SecretBox } from '../database/index.js';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { recordAudit, listAudit, createStaffUser } from './index.js';
import { createApiKey, createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { createCashin, transition } from '../payments/index.js';

const PERMISSION_DENIED = { code: '42501', message: 'permission denied for table audit_log' };

describe("audit_log: append-only for the application's role by privilege, for a superuser by trigger", () => {
  let database: TestDatabase;
  let superuser: pg.Client;
  let app: pg.Client;
  const role = `mm_test_app_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    superuser = new pg.Client({ connectionString: database.url });
    await superuser.connect();
    await superuser.query(`CREATE ROLE ${role} LOGIN IN ROLE mm_app`);
    // A session of the application's role: same connection as the tests', then SET ROLE.
    app = new pg.Client({ connectionString: database.url });
    await app.connect();
    await app.query(`SET ROLE ${role}`);
  });
  afterAll(async () => {
    await app.end();
    await superuser.end();
    await database.drop();
    const admin = new pg.Client({ connectionString: database.url.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS ${role}`).finally(() => admin.end());
  });

  it("lets the application's role INSERT and SELECT audit rows, and refuses it UPDATE, DELETE and TRUNCATE with a permission error", async () => {
    expect((await app.query('SELECT current_user, usesuper FROM pg_user WHERE usename = current_user')).rows).toEqual([
      { current_user: role, usesuper: false },
    ]);
    const {
      rows: [row],
    } = await app.query<{ id: string }>(
      `INSERT INTO audit_log (actor, action) VALUES ('app@example.test', 'test.insert') RETURNING id`,
    );
    expect((await app.query('SELECT actor FROM audit_log WHERE id = $1', [row!.id])).rows).toEqual([
      { actor: 'app@example.test' },
    ]);

    // Refused by privilege, before any trigger runs: "permission denied", not the trigger's "append-only".
    await expect(
      app.query(`UPDATE audit_log SET actor = 'someone else' WHERE id = $1`, [row!.id]),
    ).rejects.toMatchObject(PERMISSION_DENIED);
    await expect(app.query('DELETE FROM audit_log WHERE id = $1', [row!.id])).rejects.toMatchObject(PERMISSION_DENIED);
    await expect(app.query('TRUNCATE audit_log')).rejects.toMatchObject(PERMISSION_DENIED);
    expect((await app.query('SELECT actor FROM audit_log WHERE id = $1', [row!.id])).rows).toEqual([
      { actor: 'app@example.test' },
    ]);
  });

  it("does not let the application's role disable the triggers, take the table or drop it", async () => {
    const mustOwn = { code: '42501', message: 'must be owner of table audit_log' };
    await expect(app.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change')).rejects.toMatchObject(mustOwn);
    await expect(app.query(`ALTER TABLE audit_log OWNER TO ${role}`)).rejects.toMatchObject(mustOwn);
    await expect(app.query('DROP TABLE audit_log')).rejects.toMatchObject(mustOwn);
    await expect(app.query('SET session_replication_role = replica')).rejects.toMatchObject({ code: '42501' });
    // Nobody logs in as the owner, and the application's role is not one of its members.
    const { rows } = await superuser.query(
      `SELECT tableowner, (SELECT rolcanlogin FROM pg_roles WHERE rolname = tableowner) AS can_log_in,
      pg_has_role($1, tableowner, 'MEMBER') AS app_is_member FROM pg_tables WHERE tablename = 'audit_log'`,
      [role],
    );
    expect(rows).toEqual([{ tableowner: 'mm_audit_owner', can_log_in: false, app_is_member: false }]);
  });

  it('refuses TRUNCATE to a superuser by trigger, directly and through TRUNCATE ... CASCADE of staff_users', async () => {
    expect((await superuser.query('SELECT usesuper FROM pg_user WHERE usename = current_user')).rows).toEqual([
      { usesuper: true },
    ]);
    await superuser.query(`INSERT INTO audit_log (actor, action) VALUES ('root@example.test', 'test.insert')`);
    await expect(superuser.query('TRUNCATE audit_log')).rejects.toThrow(/audit_log is append-only/);
    await expect(superuser.query('TRUNCATE staff_users CASCADE')).rejects.toThrow(/audit_log is append-only/);
    expect(Number((await superuser.query('SELECT count(*) FROM audit_log')).rows[0].count)).toBeGreaterThanOrEqual(2);
  });

  it("gives the application's role what the services need on the other tables (a login role of mm_app runs a payment and a staff action)", async () => {
    // Logged in as the role itself, as a service would be.
    const url = new URL(database.url);
    url.username = role;
    const db: Db = createDb({ databaseUrl: url.toString(), poolSize: 2 });
    try {
      for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
      const merchant = await createMerchant(db, { name: 'Role test', webhookUrl: 'https://shop.example/hooks' });
      await createApiKey(db, new SecretBox(randomBytes(32).toString('hex')), merchant.id);
      const cashin = await createCashin(db, {
        merchantId: merchant.id,
        merchantOrderId: 'role-1',
        amount: 1000,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250707000001',
        motif: null,
        returnUrl: null,
        notifyUrl: null,
        metadata: null,
        requestFingerprint: 'role-1',
      });
      if (cashin.kind !== 'created') throw new Error('not created');
      await db.$transaction(async (tx) => {
        for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const)
          await transition(tx, { transactionId: cashin.transaction.id, to, cause: 'test' });
      });
      const staff = await createStaffUser(db, {
        email: 'role.test@example.test',
        name: 'Role',
        role: 'admin',
        password: 'a long password',
      });
      await db.$transaction((tx) =>
        recordAudit(tx, {
          staffId: staff.id,
          actor: staff.email,
          action: 'test.role',
          targetType: 'staff',
          targetId: staff.id,
        }),
      );
      expect((await listAudit(db, { limit: 1, actor: staff.email })).entries).toHaveLength(1);
      await expect(db.$executeRaw`DELETE FROM _prisma_migrations`).rejects.toThrow(/permission denied/);
    } finally {
      await db.$disconnect();
    }
  });

  it('migrates as in production: a migrating role that is no superuser, owns the database and is a member of mm_audit_owner', async () => {
    const migrator = `mm_test_migrator_${randomBytes(4).toString('hex')}`;
    const empty = await createEmptyDatabase();
    try {
      await superuser.query(`CREATE ROLE ${migrator} LOGIN IN ROLE mm_audit_owner`);
      await superuser.query(`ALTER DATABASE ${empty.name} OWNER TO ${migrator}`);
      const url = new URL(empty.url);
      url.username = migrator;
      expect((await migrate(url.toString())).applied).toContain('20261125100000_audit_log_privileges');
      const check = new pg.Client({ connectionString: empty.url });
      await check.connect();
      const { rows } = await check
        .query(`SELECT tableowner FROM pg_tables WHERE tablename IN ('audit_log', 'merchants') ORDER BY tablename`)
        .finally(() => check.end());
      expect(rows).toEqual([{ tableowner: 'mm_audit_owner' }, { tableowner: migrator }]);
    } finally {
      await empty.drop();
      await superuser.query(`DROP ROLE IF EXISTS ${migrator}`);
    }
  });
});
