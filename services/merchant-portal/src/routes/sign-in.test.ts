/**
 * The portal's sign-in over HTTP: two steps, the session renewed at the end (fixation), the second step's
 * window and wrong-code limit, the lockout, CSRF, the cookies' flags and the language switch.
 */
import { TestClient } from '@mm/testing';
import {
  startPortalFixture,
  TEST_PASSWORD,
  type PortalFixture,
  type PortalUser,
} from '../test-support/portal-fixture.js';

describe('merchant portal sign-in', () => {
  let portal: PortalFixture;
  let merchantId: string;
  let owner: PortalUser;
  let viewer: PortalUser;

  beforeAll(async () => {
    portal = await startPortalFixture({ LOGIN_MAX_FAILURES: '3' });
    merchantId = await portal.createMerchant('Boutique Awa');
    owner = await portal.createUser(merchantId, 'owner');
    viewer = await portal.createUser(merchantId, 'viewer', { twoFactor: false });
  });
  afterAll(() => portal.stop());

  const auditActions = async (userId: string) =>
    (await portal.db.auditEntry.findMany({ where: { merchantUserId: userId }, orderBy: { id: 'asc' } })).map(
      (r) => r.action,
    );

  it('sends a visitor without a session to the sign-in page, and back to the page it asked for', async () => {
    const client = portal.client();
    const page = await client.get('/payments?status=FAILED');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/login?next=%2Fpayments%3Fstatus%3DFAILED');
  });

  it('signs in a user without two-factor in one step, under a new session id', async () => {
    const client = portal.client();
    await client.get('/login');
    const before = client.sessionId();
    const res = await client.post('/login', { email: viewer.email.toUpperCase(), password: TEST_PASSWORD, next: '/' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/');
    expect(client.sessionId()).toBeDefined();
    expect(client.sessionId()).not.toBe(before);
    expect(await portal.redis.exists(portal.sessionKey(before!))).toBe(0);
    const home = await client.get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Boutique Awa');
    expect(home.text).toContain('id="balances"');
    expect(await auditActions(viewer.id)).toContain('portal.login');
  });

  it('asks a user with two-factor for a code, and accepts each code once', async () => {
    const client = portal.client();
    await client.get('/login');
    const first = await client.post('/login', { email: owner.email, password: TEST_PASSWORD });
    expect(first.location).toBe('/login/code');
    // Half signed in is not signed in.
    expect((await client.get('/')).status).toBe(303);
    await client.get('/login/code');
    const wrong = await client.post('/login/code', { code: '000000' === portal.codeOf(owner) ? '111111' : '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('id="sign-in-error"');
    const code = portal.codeOf(owner);
    const right = await client.post('/login/code', { code });
    expect(right.status).toBe(303);
    expect((await client.get('/')).status).toBe(200);

    // The same code again, from another browser with the right password: refused (no replay).
    const other = portal.client();
    await other.get('/login');
    await other.post('/login', { email: owner.email, password: TEST_PASSWORD });
    await other.get('/login/code');
    expect((await other.post('/login/code', { code })).status).toBe(401);
    const actions = await auditActions(owner.id);
    expect(actions.filter((a) => a === 'portal.second_factor_failed')).toHaveLength(2);
    expect(actions).toContain('portal.login');
    portal.clock.now += 30_000;
  });

  it('accepts a recovery code once', async () => {
    const code = owner.recoveryCodes[0]!;
    for (const expected of [303, 401]) {
      const client = portal.client();
      await client.get('/login');
      await client.post('/login', { email: owner.email, password: TEST_PASSWORD });
      await client.get('/login/code');
      expect((await client.post('/login/code', { code })).status).toBe(expected);
    }
  });

  it('asks for the password again when the code comes too late or is wrong too often', async () => {
    const late = portal.client();
    await late.get('/login');
    await late.post('/login', { email: owner.email, password: TEST_PASSWORD });
    await late.get('/login/code');
    portal.clock.now += 5 * 60_000 + 1;
    const res = await late.post('/login/code', { code: portal.codeOf(owner) });
    expect(res.status).toBe(401);
    expect(res.text).toContain('id="sign-in-form"');

    const guesser = portal.client();
    await guesser.get('/login');
    await guesser.post('/login', { email: owner.email, password: TEST_PASSWORD });
    await guesser.get('/login/code');
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await guesser.post('/login/code', { code: 'xxxxxx' })).text);
    expect(statuses.slice(0, 4).every((t) => t.includes('id="code-form"'))).toBe(true);
    expect(statuses[4]).toContain('id="sign-in-form"');
    // The right code now finds no pending sign-in.
    expect((await guesser.post('/login/code', { code: portal.codeOf(owner) })).text).toContain('id="sign-in-form"');
    portal.clock.now += 30_000;
  });

  it('locks an email after the configured failures, even for the right password, with one message for all', async () => {
    const user = await portal.createUser(merchantId, 'finance', { twoFactor: false });
    const client = portal.client();
    await client.get('/login');
    const texts: string[] = [];
    for (let i = 0; i < 3; i++)
      texts.push((await client.post('/login', { email: user.email, password: 'wrong' })).text);
    const locked = await client.post('/login', { email: user.email, password: TEST_PASSWORD });
    expect(locked.status).toBe(401);
    const unknown = await client.post('/login', { email: 'nobody@shop.test', password: 'x' });
    const message = (text: string) => /id="sign-in-error"[^>]*>([^<]*)</.exec(text)?.[1];
    expect(message(locked.text)).toBe(message(texts[0]!));
    expect(message(unknown.text)).toBe(message(texts[0]!));
    expect(await auditActions(user.id)).toContain('portal.login_locked');
  });

  it('refuses a POST without the session token and records nothing', async () => {
    const client = portal.client();
    await client.get('/login');
    const before = await portal.db.auditEntry.count();
    const res = await client.post('/login', { _csrf: null, email: viewer.email, password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect(await portal.db.auditEntry.count()).toBe(before);
  });

  it('sets HttpOnly SameSite cookies and a CSP without inline scripts', async () => {
    const res = await portal.client().get('/login');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('mm_mp_sid='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
  });

  it('speaks the browser language, then the one chosen, remembered in a cookie', async () => {
    const client = new TestClient(portal.url, { 'accept-language': 'en-GB,en;q=0.9' }, 'mm_mp_sid');
    const english = await client.get('/login');
    expect(english.text).toContain('<html lang="en">');
    const switched = await client.post('/language', { lang: 'fr', back: '/login' });
    expect(switched.location).toBe('/login');
    expect(client.cookies.get('mm_lang')).toBe('fr');
    const french = await client.get('/login');
    expect(french.text).toContain('<html lang="fr">');
    expect(french.text).toContain('Mot de passe');
    // No preference at all: French.
    expect((await portal.client().get('/login')).text).toContain('<html lang="fr">');
  });

  it('signs out, audited, and the old session is gone', async () => {
    const client = portal.client();
    await portal.signIn(client, viewer);
    const id = client.sessionId()!;
    const out = await client.post('/logout');
    expect(out.location).toBe('/login?signed_out=1');
    expect(await portal.redis.exists(portal.sessionKey(id))).toBe(0);
    expect(await auditActions(viewer.id)).toContain('portal.logout');
  });
});

describe('merchant portal cookies in production', () => {
  it('marks the session cookie Secure', async () => {
    const portal = await startPortalFixture({ SECURE_COOKIES: 'true', TRUST_PROXY: 'true' });
    try {
      // Secure cookies are only sent back over HTTPS: the proxy's header says the request was.
      const res = await portal.client({ 'x-forwarded-proto': 'https' }).get('/login');
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('mm_mp_sid='));
      expect(cookie ?? '').toMatch(/Secure/i);
    } finally {
      await portal.stop();
    }
  });
});
