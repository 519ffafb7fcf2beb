/**
 * Password reset over HTTP with the mail read back: the same answer for an unknown email, a single-use
 * link valid one hour that ends every session of the user, and requests counted apart from sign-ins.
 */
import {
  startPortalFixture,
  TEST_PASSWORD,
  type PortalFixture,
  type PortalUser,
} from '../test-support/portal-fixture.js';

const EN = { 'accept-language': 'en' };
const NEW_PASSWORD = 'my new long password';

describe('merchant portal: password reset', () => {
  let portal: PortalFixture;
  let user: PortalUser;

  beforeAll(async () => {
    portal = await startPortalFixture({ LOGIN_MAX_FAILURES: '3' });
    const merchantId = await portal.createMerchant('Boutique Awa');
    user = await portal.createUser(merchantId, 'finance', { twoFactor: false });
  });
  afterAll(() => portal.stop());

  const ask = async (email: string, headers = EN) => {
    const client = portal.client(headers);
    await client.get('/password-reset');
    return client.post('/password-reset', { email });
  };
  const linkIn = (text: string) => {
    const m = /https:\/\/portal\.test(\/password-reset\/[A-Za-z0-9_-]{43})/.exec(text);
    if (!m) throw new Error(`no link in: ${text}`);
    return m[1]!;
  };

  it('answers an unknown email exactly as a known one, and mails only the known one', async () => {
    const since = portal.mail.messages.length;
    const unknown = await ask('nobody@shop.test');
    const known = await ask(user.email.toUpperCase());
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    const sentence = 'If this address has an account, a link has just been sent to it.';
    expect(unknown.text).toContain(sentence);
    expect(known.text).toContain(sentence);
    const mail = await portal.mail.next(user.email, since);
    expect(mail.subject).toBe('Choose a new password');
    expect(portal.mail.messages.slice(since).map((m) => m.subject)).toEqual(['Choose a new password']);
    expect(await portal.db.auditEntry.count({ where: { action: 'portal.password_reset_requested' } })).toBe(1);
  });

  it('sets the password once with the link, ends every session, and the old password stops working', async () => {
    const session = portal.client(EN);
    await portal.signIn(session, user);
    const since = portal.mail.messages.length;
    await ask(user.email, { 'accept-language': 'fr' });
    const mail = await portal.mail.next(user.email, since);
    expect(mail.subject).toBe('Choisir un nouveau mot de passe');
    const link = linkIn(mail.text!);

    const browser = portal.client(EN);
    const form = await browser.get(link);
    expect(form.status).toBe(200);
    const mismatch = await browser.post(link, { password: NEW_PASSWORD, confirm: 'something else entirely' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('The two passwords differ.');
    portal.clock.now += 1000;
    const done = await browser.post(link, { password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/login?reset=1');
    expect((await browser.get('/login?reset=1')).text).toContain('Your password has been changed');

    expect((await session.get('/')).status).toBe(303);
    expect((await browser.get(link)).status).toBe(410);
    const old = await portal.client(EN).logIn(user.email, TEST_PASSWORD);
    expect(old.status).toBe(401);
    const fresh = await portal.client(EN).logIn(user.email, NEW_PASSWORD);
    expect(fresh.status).toBe(303);
    expect(await portal.db.auditEntry.count({ where: { action: 'portal.password_reset', targetId: user.id } })).toBe(1);
  });

  it('refuses a link past its hour, and a made-up one, with the same 410', async () => {
    const since = portal.mail.messages.length;
    await ask(user.email);
    const link = linkIn((await portal.mail.next(user.email, since)).text!);
    portal.clock.now += 3600_000;
    const late = await portal.client(EN).get(link);
    expect(late.status).toBe(410);
    expect(late.text).toContain('This link has expired.');
    expect((await portal.client(EN).get(`/password-reset/${'A'.repeat(43)}`)).status).toBe(410);
  });

  it('stops mailing an email asked for too often, with the same answer, and leaves its sign-in alone', async () => {
    const other = await portal.createUser(await portal.createMerchant(), 'viewer', { twoFactor: false });
    for (let i = 0; i < 3; i++) expect((await ask(other.email)).status).toBe(200);
    const flooded = await ask(other.email);
    expect(flooded.status).toBe(200);
    expect(flooded.text).toContain('If this address has an account');
    // The link is made before the answer; the 4th request made none, so no 4th mail can go.
    expect(await portal.db.merchantPasswordReset.count({ where: { merchantUserId: other.id } })).toBe(3);
    expect((await portal.client(EN).logIn(other.email, TEST_PASSWORD)).status).toBe(303);
  });
});
