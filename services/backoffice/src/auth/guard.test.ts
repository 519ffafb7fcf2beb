import { startBackofficeFixture, TEST_PASSWORD, type BackofficeFixture } from '../test-support/backoffice-fixture.js';

const SESSION_TTL_S = 3600;

describe('backoffice access control', () => {
  let bo: BackofficeFixture;
  // The server's clock, moved by hand to cross the session's absolute lifetime without waiting.
  let clockOffsetMs = 0;
  beforeAll(async () => {
    bo = await startBackofficeFixture(
      { SESSION_TTL_S: String(SESSION_TTL_S) },
      { now: () => Date.now() + clockOffsetMs },
    );
  });
  afterAll(async () => {
    await bo.stop();
  });

  async function loggedIn(role: 'admin' | 'approver' | 'viewer') {
    const staff = await bo.createStaff(role);
    const client = bo.client();
    expect((await client.logIn(staff.email, TEST_PASSWORD)).status).toBe(303);
    await client.get('/');
    return { staff, client };
  }
  const isDisabled = async (id: string) =>
    (await bo.db.staffUser.findUniqueOrThrow({ where: { id } })).disabledAt !== null;

  it('anonymous: GETs go to the login page, other methods get 401, liveness is open without a session (readiness and metrics are on the internal port)', async () => {
    const c = bo.client();
    expect(await c.get('/')).toMatchObject({ status: 303, location: '/login' });
    expect(await c.get('/staff')).toMatchObject({ status: 303, location: '/login?next=%2Fstaff' });
    expect(await c.get('/no-such-page')).toMatchObject({ status: 303 });
    await c.get('/login');
    const { staff } = await loggedIn('viewer');
    const post = await c.post(`/staff/${staff.id}/disable`);
    expect(post.status).toBe(401);
    expect(await isDisabled(staff.id)).toBe(false);

    const health = await fetch(`${bo.url}/health`);
    expect(health.status).toBe(200);
    expect(health.headers.getSetCookie()).toEqual([]);
    expect((await fetch(`${bo.internalUrl}/ready`)).status).toBe(200);
    expect(await (await fetch(`${bo.internalUrl}/metrics`)).text()).toContain('mm_backoffice_login_attempts_total');
  });

  it('a viewer or an approver gets 403 on the admin-only staff page, and no link to it', async () => {
    for (const role of ['viewer', 'approver'] as const) {
      const { client } = await loggedIn(role);
      const home = await client.get('/');
      expect(home.text).toContain('data-nav="home"');
      expect(home.text).not.toContain('data-nav="staff"');
      const page = await client.get('/staff');
      expect(page.status).toBe(403);
      expect(page.text).toContain('Your role does not give access to this page.');
    }
  });

  it('an admin sees the staff list, escaped, with the nav link', async () => {
    await bo
      .createStaff('viewer', 'xss@example.test')
      .then((s) => bo.db.staffUser.update({ where: { id: s.id }, data: { name: '<script>alert(1)</script>' } }));
    const { client } = await loggedIn('admin');
    const page = await client.get('/staff');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-nav="staff" aria-current="page"');
    expect(page.text).toContain('<tr data-staff-email="xss@example.test">');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('<script>');
  });

  it('a viewer cannot use an admin action even with a valid CSRF token', async () => {
    const { client } = await loggedIn('viewer');
    const target = await bo.createStaff('viewer');
    expect((await client.post(`/staff/${target.id}/disable`)).status).toBe(403);
    expect(await isDisabled(target.id)).toBe(false);
  });

  it('CSRF: an admin action without the token or with a wrong one is refused with 403 and changes nothing', async () => {
    const { client } = await loggedIn('admin');
    const target = await bo.createStaff('viewer');
    for (const token of [null, 'a'.repeat(64)]) {
      expect((await client.post(`/staff/${target.id}/disable`, { _csrf: token })).status).toBe(403);
    }
    expect(await isDisabled(target.id)).toBe(false);
    expect(await bo.db.auditEntry.count({ where: { targetId: target.id } })).toBe(0);
  });

  it('a disabled staff member loses access at once: their open session is dropped from Redis', async () => {
    const admin = await loggedIn('admin');
    const victim = await loggedIn('approver');
    const victimSession = victim.client.sessionId()!;
    expect((await victim.client.get('/')).status).toBe(200);

    await admin.client.get('/staff');
    const res = await admin.client.post(`/staff/${victim.staff.id}/disable`);
    expect(res).toMatchObject({ status: 303, location: '/staff?done=disabled' });
    expect(await isDisabled(victim.staff.id)).toBe(true);

    expect(await victim.client.get('/')).toMatchObject({ status: 303, location: '/login' });
    expect(await bo.redis.exists(bo.sessionKey(victimSession))).toBe(0);
    const [row] = await bo.db.auditEntry.findMany({ where: { action: 'staff.disable', targetId: victim.staff.id } });
    expect(row).toMatchObject({
      staffId: admin.staff.id,
      actor: admin.staff.email,
      targetType: 'staff',
      before: { disabledAt: null },
    });
    expect((row!.after as { disabledAt: string | null }).disabledAt).not.toBeNull();

    await admin.client.get('/staff');
    expect((await admin.client.post(`/staff/${victim.staff.id}/enable`)).status).toBe(303);
    expect(await isDisabled(victim.staff.id)).toBe(false);
  });

  it('a demoted staff member loses the permission on the next request', async () => {
    const { staff, client } = await loggedIn('admin');
    expect((await client.get('/staff')).status).toBe(200);
    await bo.db.staffUser.update({ where: { id: staff.id }, data: { role: 'viewer' } });
    expect((await client.get('/staff')).status).toBe(403);
  });

  it('an admin cannot disable their own account; unknown accounts are 404', async () => {
    const { staff, client } = await loggedIn('admin');
    await client.get('/staff');
    expect((await client.post(`/staff/${staff.id}/disable`)).status).toBe(400);
    expect(await isDisabled(staff.id)).toBe(false);
    expect((await client.post('/staff/00000000-0000-4000-8000-000000000000/disable')).status).toBe(404);
    expect((await client.post(`/staff/${staff.id}/promote`)).status).toBe(404);
  });

  it('a session ends SESSION_TTL_S after login, however active', async () => {
    const { client } = await loggedIn('viewer');
    clockOffsetMs = (SESSION_TTL_S - 5) * 1000;
    expect((await client.get('/')).status).toBe(200);
    clockOffsetMs = (SESSION_TTL_S + 1) * 1000;
    try {
      expect(await client.get('/')).toMatchObject({ status: 303, location: '/login' });
    } finally {
      clockOffsetMs = 0;
    }
    expect((await client.get('/')).status).toBe(303);
  });
});
