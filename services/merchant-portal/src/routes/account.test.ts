/**
 * "My account" over HTTP: the user's details, two-factor set up end to end (the QR code read back as a
 * phone would, the recovery codes shown once and each accepted once), set up again, turned off, and
 * "sign out of every session" ending the sessions of other browsers.
 */
import { findMerchantUserForLogin } from '@mm/db/merchant-users';
import { totpCode } from '../auth/totp.js';
import { readSvgQr } from '../test-support/read-qr.js';
import {
  startPortalFixture,
  TEST_PASSWORD,
  type PortalFixture,
  type PortalUser,
} from '../test-support/portal-fixture.js';

const EN = { 'accept-language': 'en' };

describe('merchant portal: my account', () => {
  let portal: PortalFixture;
  let merchantId: string;

  beforeAll(async () => {
    portal = await startPortalFixture();
    merchantId = await portal.createMerchant('Boutique Awa');
  });
  afterAll(() => portal.stop());

  const actions = async (userId: string) =>
    (await portal.db.auditEntry.findMany({ where: { merchantUserId: userId }, orderBy: { id: 'asc' } })).map(
      (r) => r.action,
    );
  const secretOf = (page: string) => /id="totp-secret">([^<]+)</.exec(page)?.[1]?.replace(/\s/g, '');
  const signedIn = async (user: PortalUser) => {
    const client = portal.client(EN);
    await portal.signIn(client, user);
    return client;
  };

  it('shows who the user is, their role and that two-factor sign-in is off, to any role', async () => {
    const viewer = await portal.createUser(merchantId, 'viewer', { twoFactor: false });
    const client = await signedIn(viewer);
    const page = await client.get('/account');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`id="account-email">${viewer.email}<`);
    expect(page.text).toContain('id="account-role">Viewer<');
    expect(page.text).toContain('data-two-factor="off"');
    expect(page.text).toContain('id="two-factor-start"');
    expect(page.text).toContain('id="sign-out-everywhere"');
    const french = portal.client();
    await portal.signIn(french, viewer);
    expect((await french.get('/account')).text).toContain('id="account-role">Lecteur<');
  });

  it('sets up two-factor end to end: QR and key, confirmed by a code, then asked at sign-in; recovery codes work once', async () => {
    const finance = await portal.createUser(merchantId, 'finance', { twoFactor: false });
    const client = await signedIn(finance);
    await client.get('/account');
    const started = await client.post('/account/two-factor/start');
    expect(started.status).toBe(303);
    const page = await client.get('/account');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('data-two-factor="pending"');
    const secret = secretOf(page.text)!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // What the phone scans is the key typed by hand, for this account.
    const uri = new URL(readSvgQr(page.text)!);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(decodeURIComponent(uri.pathname)).toContain(finance.email);
    // Not on until confirmed: the sign-in still takes the password alone.
    expect((await findMerchantUserForLogin(portal.db, { id: finance.id }))?.totpEnabledAt).toBeNull();

    const wrong = totpCode(secret, portal.clock.now) === '000000' ? '111111' : '000000';
    const refused = await client.post('/account/two-factor/confirm', { code: wrong });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('id="account-error"');
    expect((await findMerchantUserForLogin(portal.db, { id: finance.id }))?.totpEnabledAt).toBeNull();
    expect((await client.post('/account/two-factor/confirm', { code: '' })).status).toBe(400);

    const confirmed = await client.post('/account/two-factor/confirm', { code: totpCode(secret, portal.clock.now) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get('cache-control')).toBe('no-store');
    const codes = [...confirmed.text.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    const after = await client.get('/account');
    expect(after.text).toContain('data-two-factor="on"');
    expect(after.text).toContain('id="recovery-left">10<');
    // Shown once: neither the key nor the codes are on the page any more.
    expect(after.text).not.toContain(secret);
    expect(after.text).not.toContain(codes[0]);
    expect(await actions(finance.id)).toEqual(
      expect.arrayContaining(['portal.two_factor_setup_started', 'portal.two_factor_enabled']),
    );
    portal.clock.now += 30_000;

    // The next sign-in asks for a code, and the new key's code is it.
    const enrolled: PortalUser = { ...finance, totpSecret: secret, recoveryCodes: codes };
    const next = portal.client(EN);
    await next.get('/login');
    expect((await next.post('/login', { email: finance.email, password: TEST_PASSWORD })).location).toBe('/login/code');
    await next.get('/login/code');
    expect((await next.post('/login/code', { code: totpCode(secret, portal.clock.now) })).status).toBe(303);
    portal.clock.now += 30_000;
    expect((await next.get('/')).status).toBe(200);

    // A recovery code signs in once.
    const viaRecovery = async () => {
      const c = portal.client(EN);
      await c.get('/login');
      await c.post('/login', { email: enrolled.email, password: TEST_PASSWORD });
      await c.get('/login/code');
      return (await c.post('/login/code', { code: codes[0]! })).status;
    };
    expect(await viaRecovery()).toBe(303);
    expect(await viaRecovery()).toBe(401);
    expect((await client.get('/account')).text).toContain('id="recovery-left">9<');
  });

  it('sets up a new key only with a code of the one that is on, and the old recovery codes stop', async () => {
    const dev = await portal.createUser(merchantId, 'developer');
    const client = await signedIn(dev);
    await client.get('/account');
    const before = (await findMerchantUserForLogin(portal.db, { id: dev.id }))!.totpSecretCiphertext;

    expect((await client.post('/account/two-factor/start', { code: '' })).status).toBe(400);
    const wrong = portal.codeOf(dev) === '000000' ? '111111' : '000000';
    const refused = await client.post('/account/two-factor/start', { code: wrong });
    expect(refused.status).toBe(401);
    expect(await findMerchantUserForLogin(portal.db, { id: dev.id })).toMatchObject({
      totpSecretCiphertext: before,
      totpEnabledAt: expect.any(Date),
    });
    expect(await actions(dev.id)).toContain('portal.step_up_failed');

    // The phone is lost: a recovery code proves the account as well.
    expect((await client.post('/account/two-factor/start', { code: dev.recoveryCodes[0]! })).status).toBe(303);
    const now = await findMerchantUserForLogin(portal.db, { id: dev.id });
    expect(now?.totpSecretCiphertext).not.toBe(before);
    expect(now?.totpEnabledAt).toBeNull();
    expect(await portal.db.merchantUserRecoveryCode.count({ where: { merchantUserId: dev.id } })).toBe(0);
    const page = await client.get('/account');
    expect(secretOf(page.text)).not.toBe(dev.totpSecret);
    expect(await actions(dev.id)).toContain('portal.two_factor_setup_started');
  });

  it('turns two-factor off with a current code, never while the team requires it', async () => {
    const admin = await portal.createUser(merchantId, 'admin');
    const client = await signedIn(admin);
    await client.get('/account');
    const wrong = portal.codeOf(admin) === '000000' ? '111111' : '000000';
    expect((await client.post('/account/two-factor/disable', { code: wrong })).status).toBe(401);
    expect((await client.post('/account/two-factor/disable', { code: '' })).status).toBe(400);
    expect((await findMerchantUserForLogin(portal.db, { id: admin.id }))?.totpEnabledAt).not.toBeNull();

    const strict = await portal.createMerchant('Strict shop');
    await portal.db.merchant.update({ where: { id: strict }, data: { requireTwoFactor: true } });
    const owner = await portal.createUser(strict, 'owner');
    const ownerClient = await signedIn(owner);
    const page = await ownerClient.get('/account');
    expect(page.text).toContain('id="two-factor-locked"');
    expect(page.text).not.toContain('id="two-factor-disable"');
    expect((await ownerClient.post('/account/two-factor/disable', { code: portal.codeOf(owner) })).status).toBe(403);
    expect((await findMerchantUserForLogin(portal.db, { id: owner.id }))?.totpEnabledAt).not.toBeNull();

    const off = await client.post('/account/two-factor/disable', { code: portal.codeOf(admin) });
    expect(off.status).toBe(303);
    expect((await client.get(off.location!)).text).toContain('data-two-factor="off"');
    expect(await findMerchantUserForLogin(portal.db, { id: admin.id })).toMatchObject({
      totpEnabledAt: null,
      totpSecretCiphertext: null,
    });
    expect(await portal.db.merchantUserRecoveryCode.count({ where: { merchantUserId: admin.id } })).toBe(0);
    expect(await actions(admin.id)).toContain('portal.two_factor_disabled');
  });

  it("signs out of every session: this browser's and another's", async () => {
    const owner = await portal.createUser(merchantId, 'owner');
    const here = await signedIn(owner);
    const there = await signedIn(owner);
    await here.get('/account');
    const res = await here.post('/account/sign-out-everywhere');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login?signed_out=1');
    expect((await here.get('/account')).status).toBe(303);
    const elsewhere = await there.get('/account');
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.location).toMatch(/^\/login/);
    expect(await actions(owner.id)).toContain('portal.sign_out_everywhere');
    // A sign-in after it works as before.
    await signedIn(owner);
  });

  it('refuses the forms without their CSRF token, nothing changed', async () => {
    const viewer = await portal.createUser(merchantId, 'viewer', { twoFactor: false });
    const client = await signedIn(viewer);
    expect((await client.post('/account/two-factor/start', { _csrf: null })).status).toBe(403);
    expect((await client.post('/account/sign-out-everywhere', { _csrf: null })).status).toBe(403);
    expect((await findMerchantUserForLogin(portal.db, { id: viewer.id }))?.totpSecretCiphertext).toBeNull();
    expect((await client.get('/account')).status).toBe(200);
  });
});
