import { createHash } from 'node:crypto';
import { setStaffDisabled } from '@mm/db/staff';
import { startBackofficeFixture, TEST_PASSWORD, type BackofficeFixture } from '../test-support/backoffice-fixture.js';

const MAX_FAILURES = 3;
const LOCKOUT_S = 600;
const REFUSED =
  /Incorrect email or password\. After 3 failed attempts in a row, logging in to that account is paused for 10 minutes\./;

describe('backoffice login, lockout, logout', () => {
  let bo: BackofficeFixture;
  beforeAll(async () => {
    bo = await startBackofficeFixture({ LOGIN_MAX_FAILURES: String(MAX_FAILURES), LOGIN_LOCKOUT_S: String(LOCKOUT_S) });
  });
  afterAll(async () => {
    await bo.stop();
  });
  const audit = (action: string, actor: string) =>
    bo.db.auditEntry.findMany({ where: { action, actor }, orderBy: { id: 'asc' } });

  it('shows the login form with its CSRF token, under a strict CSP, in a short-lived anonymous session', async () => {
    const c = bo.client();
    const page = await c.get('/login');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<input id="email" name="email" type="email"/);
    expect(page.text).toMatch(/<input id="password" name="password" type="password"/);
    expect(page.text).toContain('<button type="submit">Log in</button>');
    expect(c.csrf).toMatch(/^[0-9a-f]{64}$/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)![1];
    expect(page.text).toContain(`<style nonce="${nonce}">`);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await bo.redis.ttl(bo.sessionKey(c.sessionId()!))).toBeLessThanOrEqual(30 * 60);
  });

  it('logs in: new session id (fixation), session in Redis under the suite prefix, cookie flags, audit row', async () => {
    const staff = await bo.createStaff('approver', 'Login.Ok@Example.test');
    const c = bo.client();
    await c.get('/login');
    const anonymousId = c.sessionId()!;
    expect(await bo.redis.exists(bo.sessionKey(anonymousId))).toBe(1);

    const res = await c.post('/login', { email: 'LOGIN.OK@example.test', password: TEST_PASSWORD });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/');
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('mm_bo_sid='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // Development defaults (no NODE_ENV): plain HTTP on this machine, so neither Secure nor HSTS.
    expect(cookie).not.toMatch(/Secure/);
    expect(res.headers.get('strict-transport-security')).toBeNull();

    const id = c.sessionId()!;
    expect(id).not.toBe(anonymousId);
    expect(await bo.redis.exists(bo.sessionKey(anonymousId))).toBe(0);
    const stored = JSON.parse((await bo.redis.get(bo.sessionKey(id)))!);
    expect(stored.staffId).toBe(staff.id);
    const ttl = await bo.redis.ttl(bo.sessionKey(id));
    expect(ttl).toBeGreaterThan(28_000);
    expect(ttl).toBeLessThanOrEqual(28_800);

    const home = await c.get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<span id="staff-email">login.ok@example.test</span>');
    expect(home.text).toContain('id="staff-role">approver</span>');
    expect(home.text).toContain('<button type="submit" class="secondary">Log out</button>');
    expect(await audit('login', 'login.ok@example.test')).toEqual([
      expect.objectContaining({ staffId: staff.id, targetId: staff.id, requestId: expect.any(String) }),
    ]);
  });

  it('refuses a wrong password and an unknown email with the same message, recording both', async () => {
    const staff = await bo.createStaff('viewer', 'wrong.pw@example.test');
    const c = bo.client();
    const wrong = await c.logIn('wrong.pw@example.test', 'not the password');
    const unknown = await c.logIn('nobody@example.test', TEST_PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.text).toMatch(REFUSED);
    }
    // The same page but for the email typed back, the CSRF token and the CSP nonce.
    const strip = (text: string) => text.replace(/(value|nonce)="[^"]*"/g, '');
    expect(strip(wrong.text)).toBe(strip(unknown.text));
    expect((await c.get('/')).status).toBe(303);
    const [failed] = await audit('login_failed', 'wrong.pw@example.test');
    expect(failed).toMatchObject({
      staffId: staff.id,
      after: { reason: 'wrong_password', failures: 1, locked: false },
    });
    const [ghost] = await audit('login_failed', 'nobody@example.test');
    expect(ghost).toMatchObject({ staffId: null, after: { reason: 'unknown_email', failures: 1 } });
  });

  it(`locks the account after ${MAX_FAILURES} failures: even the right password is refused, then allowed once the lock expires`, async () => {
    const staff = await bo.createStaff('admin', 'locked@example.test');
    const c = bo.client();
    for (let i = 0; i < MAX_FAILURES; i++)
      expect((await c.logIn('locked@example.test', `guess ${i}`)).status).toBe(401);
    const key = await lockKey('locked@example.test');
    expect(await bo.redis.hget(key, 'n')).toBe(String(MAX_FAILURES));

    const whileLocked = await c.logIn('locked@example.test', TEST_PASSWORD);
    expect(whileLocked.status).toBe(401);
    expect(whileLocked.text).toMatch(REFUSED);
    expect((await c.get('/')).status).toBe(303);
    expect(await audit('login_locked', 'locked@example.test')).toEqual([
      expect.objectContaining({ staffId: staff.id, after: { refused: 1 } }),
    ]);
    expect((await audit('login_failed', 'locked@example.test')).at(-1)).toMatchObject({
      after: { failures: MAX_FAILURES, locked: true },
    });
    // Attempts while locked do not extend the lock.
    expect(await bo.redis.hget(key, 'n')).toBe(String(MAX_FAILURES));
    const ttl = await bo.redis.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(LOCKOUT_S);

    // The lock's expiry, without waiting ten minutes.
    await bo.redis.del(key);
    expect((await c.logIn('locked@example.test', TEST_PASSWORD)).status).toBe(303);
    expect((await c.get('/')).status).toBe(200);
  });

  it('a success resets the failure count', async () => {
    await bo.createStaff('viewer', 'reset@example.test');
    const c = bo.client();
    for (let i = 0; i < MAX_FAILURES - 1; i++) await c.logIn('reset@example.test', 'wrong');
    const key = await lockKey('reset@example.test');
    expect(await bo.redis.hget(key, 'n')).toBe(String(MAX_FAILURES - 1));
    expect((await c.logIn('reset@example.test', TEST_PASSWORD)).status).toBe(303);
    expect(await bo.redis.exists(key)).toBe(0);
  });

  it('a disabled staff member cannot log in (same message)', async () => {
    const staff = await bo.createStaff('admin', 'disabled@example.test');
    await setStaffDisabled(bo.db, staff.id, true);
    const res = await bo.client().logIn('disabled@example.test', TEST_PASSWORD);
    expect(res.status).toBe(401);
    expect(res.text).toMatch(REFUSED);
    expect((await audit('login_failed', 'disabled@example.test'))[0]).toMatchObject({ after: { reason: 'disabled' } });
  });

  it('logout destroys the session in Redis and records it; the old cookie then gets nothing', async () => {
    const staff = await bo.createStaff('viewer', 'logout@example.test');
    const c = bo.client();
    await c.logIn('logout@example.test', TEST_PASSWORD);
    await c.get('/');
    const id = c.sessionId()!;
    const cookie = c.cookies.get('mm_bo_sid')!;
    expect(await bo.redis.exists(bo.sessionKey(id))).toBe(1);

    const res = await c.post('/logout');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login?logged_out=1');
    expect(await bo.redis.exists(bo.sessionKey(id))).toBe(0);
    expect(await audit('logout', 'logout@example.test')).toEqual([expect.objectContaining({ staffId: staff.id })]);

    const replay = bo.client();
    replay.cookies.set('mm_bo_sid', cookie);
    const home = await replay.get('/');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/login');
  });

  it('CSRF: a login or logout POST without the token, or with a wrong one, is refused with 403 and changes nothing', async () => {
    await bo.createStaff('viewer', 'csrf.login@example.test');
    const c = bo.client();
    await c.get('/login');
    for (const token of [null, 'f'.repeat(64), '']) {
      const res = await c.post('/login', { email: 'csrf.login@example.test', password: TEST_PASSWORD, _csrf: token });
      expect(res.status).toBe(403);
      expect(res.text).toContain('id="error-message"');
    }
    expect((await c.get('/')).status).toBe(303);
    expect(await bo.db.auditEntry.count({ where: { actor: 'csrf.login@example.test' } })).toBe(0);

    await c.logIn('csrf.login@example.test', TEST_PASSWORD);
    await c.get('/');
    const id = c.sessionId()!;
    for (const token of [null, 'f'.repeat(64)]) expect((await c.post('/logout', { _csrf: token })).status).toBe(403);
    expect(await bo.redis.exists(bo.sessionKey(id))).toBe(1);
    expect((await c.get('/')).status).toBe(200);
  });

  it('returns to the page asked for after login, never to another site', async () => {
    await bo.createStaff('admin', 'next@example.test');
    const c = bo.client();
    const anonymous = await c.get('/staff?x=1');
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe('/login?next=%2Fstaff%3Fx%3D1');
    await c.get(anonymous.location!);
    expect(
      (await c.post('/login', { email: 'next@example.test', password: TEST_PASSWORD, next: '/staff?x=1' })).location,
    ).toBe('/staff?x=1');

    for (const next of ['//evil.example/x', 'https://evil.example', '/\\evil.example', '/login']) {
      const other = bo.client();
      await other.get('/login');
      expect((await other.post('/login', { email: 'next@example.test', password: TEST_PASSWORD, next })).location).toBe(
        '/',
      );
    }
  });

  async function lockKey(email: string): Promise<string> {
    const keys = await bo.redis.keys(`${bo.prefix}:bo:login-account:*`);
    // Hashed: no email addresses in Redis key names.
    const key = `${bo.prefix}:bo:login-account:${createHash('sha256').update(email).digest('hex')}`;
    expect(keys).toContain(key);
    return key;
  }
});
