import { createDb, type Db } from '@mm/db';
import { findStaffByEmail, verifyPassword } from '@mm/db/staff';
import { DEMO_STAFF } from '@mm/config';
import { createTestDatabase, type TestDatabase } from '@mm/testing';
import { runCommand } from './run-command.js';
import { parseEnv } from './env.js';

describe('admin CLI: back-office staff', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 2 });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });
  const env = () => parseEnv({ DATABASE_URL: database.url });

  it('staff:create without --password generates a strong one, prints it once, stores only its scrypt hash', async () => {
    const out = await runCommand(
      ['staff:create', '--email', 'Ops@Example.test', '--name', 'Ops Person', '--role', 'approver', '--json'],
      env(),
    );
    const parsed = JSON.parse(out.split('\n').at(-1)!);
    expect(parsed).toEqual({
      staff_id: expect.any(String),
      email: 'ops@example.test',
      name: 'Ops Person',
      role: 'approver',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    const stored = await findStaffByEmail(db, 'ops@example.test');
    expect(stored?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored?.passwordHash).not.toContain(parsed.password);
    await expect(verifyPassword(parsed.password, stored!.passwordHash)).resolves.toBe(true);
    const [audit] = await db.auditEntry.findMany({ where: { action: 'staff.create', targetId: parsed.staff_id } });
    expect(audit).toMatchObject({ actor: 'admin-cli', staffId: null, targetType: 'staff' });

    const text = await runCommand(
      ['staff:create', '--email', 'text@example.test', '--name', 'T', '--role', 'viewer'],
      env(),
    );
    expect(text).toMatch(
      /^staff [0-9a-f-]{36} text@example\.test \(viewer\)\n {2}password [A-Za-z0-9_-]{24} {2}\(shown once\)$/,
    );
  });

  it('staff:create --password uses it and does not echo it', async () => {
    const out = await runCommand(
      [
        'staff:create',
        '--email',
        'given@example.test',
        '--name',
        'Given',
        '--role',
        'admin',
        '--password',
        'a-chosen-password',
        '--json',
      ],
      env(),
    );
    expect(JSON.parse(out)).not.toHaveProperty('password');
    expect(out).not.toContain('a-chosen-password');
    await expect(
      verifyPassword('a-chosen-password', (await findStaffByEmail(db, 'given@example.test'))!.passwordHash),
    ).resolves.toBe(true);
  });

  it('staff:create refuses a bad role, a short password, a missing option and a taken email', async () => {
    const base = ['staff:create', '--email', 'bad@example.test', '--name', 'Bad'];
    await expect(runCommand([...base, '--role', 'root'], env())).rejects.toThrow(
      /--role must be one of admin, approver, viewer/,
    );
    await expect(runCommand([...base, '--role', 'viewer', '--password', 'short'], env())).rejects.toThrow(
      /at least 12/,
    );
    await expect(
      runCommand(['staff:create', '--email', 'bad@example.test', '--role', 'viewer'], env()),
    ).rejects.toThrow(/--name is required/);
    await expect(
      runCommand(['staff:create', '--email', 'not-an-email', '--name', 'X', '--role', 'viewer'], env()),
    ).rejects.toThrow(/--email/);
    await expect(
      runCommand(['staff:create', '--email', 'GIVEN@example.test', '--name', 'Again', '--role', 'viewer'], env()),
    ).rejects.toThrow(/already exists/);
    expect(await findStaffByEmail(db, 'bad@example.test')).toBeNull();
  });

  it('seed creates the demo staff once, one per role, with the published password', async () => {
    const first = await runCommand(['seed'], env());
    expect(first).toContain('demo staff (password demo-password)');
    expect(first).toContain('admin@demo.local');
    const again = JSON.parse(await runCommand(['seed', '--json'], env()));
    expect(again.staff).toEqual(DEMO_STAFF.users.map((u) => ({ email: u.email, role: u.role, created: false })));
    for (const user of DEMO_STAFF.users) {
      const stored = await findStaffByEmail(db, user.email);
      expect(stored?.role).toBe(user.role);
      await expect(verifyPassword(DEMO_STAFF.password, stored!.passwordHash)).resolves.toBe(true);
    }
    expect(await db.staffUser.count({ where: { email: { endsWith: '@demo.local' } } })).toBe(3);
  });

  it('staff:disable shuts an account (a demo one after a seed), with its audit row; again is harmless; unknown fails', async () => {
    await runCommand(
      [
        'staff:create',
        '--email',
        'leaving@example.test',
        '--name',
        'Leaving',
        '--role',
        'viewer',
        '--password',
        'a-chosen-password',
      ],
      env(),
    );
    const out = JSON.parse(await runCommand(['staff:disable', '--email', 'Leaving@Example.test', '--json'], env()));
    expect(out).toEqual({ staff_id: expect.any(String), email: 'leaving@example.test', disabled: true, changed: true });
    expect((await findStaffByEmail(db, 'leaving@example.test'))!.disabledAt).toBeInstanceOf(Date);
    const audit = await db.auditEntry.findMany({ where: { action: 'staff.disable', targetId: out.staff_id } });
    expect(audit).toEqual([expect.objectContaining({ actor: 'admin-cli', staffId: null, targetType: 'staff' })]);
    expect(await runCommand(['staff:disable', '--email', 'leaving@example.test'], env())).toBe(
      'staff leaving@example.test disabled (it already was)',
    );
    expect(await db.auditEntry.count({ where: { action: 'staff.disable', targetId: out.staff_id } })).toBe(1);
    await expect(runCommand(['staff:disable', '--email', 'nobody@example.test'], env())).rejects.toThrow(
      /no staff account nobody@example\.test/,
    );
  });
});
