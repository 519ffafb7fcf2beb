/**
 * The bytes on the wire in production mode: the session cookie carries `Secure` and every answer
 * `Strict-Transport-Security`, without any variable set for it. Behind the TLS-terminating proxy
 * (TRUST_PROXY, X-Forwarded-Proto: https) logging in works; reached over plain HTTP, no cookie at all.
 */
import { startBackofficeFixture, TEST_PASSWORD, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import { HSTS_VALUE } from '@mm/web';

const PRODUCTION = {
  NODE_ENV: 'production',
  DEPLOYMENT_MODE: 'sandbox',
  SESSION_SECRET: 'p'.repeat(40),
  TRUST_PROXY: 'true',
};
// What the Ingress adds in front of the pod: the request reached it over HTTPS.
const VIA_TLS_PROXY = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.20' };

const sessionCookie = (headers: Headers) => headers.getSetCookie().find((line) => line.startsWith('mm_bo_sid='));

describe('transport security in production (NODE_ENV=production, nothing else set)', () => {
  let bo: BackofficeFixture;
  beforeAll(async () => {
    bo = await startBackofficeFixture(PRODUCTION);
  });
  afterAll(async () => {
    await bo.stop();
  });

  it('behind the TLS proxy: Secure session cookies before and after login, HSTS on every answer', async () => {
    await bo.createStaff('viewer', 'tls@example.test');
    const c = bo.client(VIA_TLS_PROXY);
    const form = await c.get('/login');
    expect(form.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
    expect(sessionCookie(form.headers)).toMatch(/; Secure(;|$)/);

    const login = await c.post('/login', { email: 'tls@example.test', password: TEST_PASSWORD });
    expect(login.status).toBe(303);
    const cookie = sessionCookie(login.headers)!;
    expect(cookie).toMatch(/; Secure(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
    expect(login.headers.get('strict-transport-security')).toBe(HSTS_VALUE);

    const home = await c.get('/');
    expect(home.status).toBe(200);
    expect(home.headers.get('strict-transport-security')).toBe(HSTS_VALUE);
    expect((await fetch(`${bo.url}/health`)).headers.get('strict-transport-security')).toBe(HSTS_VALUE);
  });

  it('over plain HTTP (not through the proxy): no session cookie is ever sent, so no session can leak in clear', async () => {
    await bo.createStaff('viewer', 'plain@example.test');
    const c = bo.client();
    const form = await c.get('/login');
    expect(form.status).toBe(200);
    expect(sessionCookie(form.headers)).toBeUndefined();
    // Without the session there is no CSRF token to match: the login POST is refused before any check.
    const login = await c.post('/login', { email: 'plain@example.test', password: TEST_PASSWORD });
    expect(sessionCookie(login.headers)).toBeUndefined();
    expect(login.status).toBe(403);
  });
});

describe('transport security explicitly off in production (SECURE_COOKIES=false, HSTS=false: plain HTTP on purpose)', () => {
  let bo: BackofficeFixture;
  beforeAll(async () => {
    bo = await startBackofficeFixture({ ...PRODUCTION, TRUST_PROXY: 'false', SECURE_COOKIES: 'false', HSTS: 'false' });
  });
  afterAll(async () => {
    await bo.stop();
  });

  it('sets a cookie without Secure over plain HTTP and sends no HSTS', async () => {
    const page = await bo.client().get('/login');
    const cookie = sessionCookie(page.headers)!;
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/Secure/);
    expect(page.headers.get('strict-transport-security')).toBeNull();
  });
});
