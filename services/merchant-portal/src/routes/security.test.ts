/**
 * The Security page over HTTP: the merchant's own audit log (never another merchant's rows nor staff
 * rows), its filters and pages, who may see it, and the owner's "two-factor for the whole team" setting
 * with what it then forces on a member without two-factor.
 */
import { recordAudit } from '@mm/db/staff';
import { totpCode } from '../auth/totp.js';
import {
  startPortalFixture,
  TEST_PASSWORD,
  type PortalFixture,
  type PortalUser,
} from '../test-support/portal-fixture.js';

const EN = { 'accept-language': 'en' };

describe('merchant portal: security', () => {
  let portal: PortalFixture;
  let merchantId: string;
  let otherId: string;
  let owner: PortalUser;
  let admin: PortalUser;
  let stranger: PortalUser;

  beforeAll(async () => {
    portal = await startPortalFixture();
    merchantId = await portal.createMerchant('Boutique Awa');
    otherId = await portal.createMerchant('Other shop');
    owner = await portal.createUser(merchantId, 'owner');
    admin = await portal.createUser(merchantId, 'admin');
    stranger = await portal.createUser(otherId, 'owner');
  });
  afterAll(() => portal.stop());

  const signedIn = async (user: PortalUser) => {
    const client = portal.client(EN);
    await portal.signIn(client, user);
    return client;
  };
  const ids = (page: string) => [...page.matchAll(/data-audit-id="(\d+)"/g)].map((m) => m[1]!);
  const required = async (id: string) =>
    (await portal.db.merchant.findUniqueOrThrow({ where: { id } })).requireTwoFactor;

  it("lists the merchant's own rows only, newest first: never another merchant's nor staff rows", async () => {
    await signedIn(stranger);
    await recordAudit(portal.db, { staffId: null, actor: 'staff@backoffice.test', action: 'merchant.disable' });
    const client = await signedIn(owner);
    const page = await client.get('/security');
    expect(page.status).toBe(200);
    const expected = await portal.db.auditEntry.findMany({
      where: { merchantId },
      orderBy: { id: 'desc' },
      select: { id: true },
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(page.text)).toEqual(expected.map((e) => e.id.toString()));
    expect(page.text).not.toContain(stranger.email);
    expect(page.text).not.toContain('staff@backoffice.test');
    expect(page.text).toContain('<div class="scroll"><table id="audit-table" class="cards">');
  });

  it('filters by action and by member in the URL, and pages with a keyset link', async () => {
    for (let i = 0; i < 55; i++) {
      await recordAudit(portal.db, {
        staffId: null,
        actor: admin.email,
        action: 'portal.test_step',
        merchantId,
        merchantUserId: admin.id,
      });
    }
    const client = await signedIn(owner);
    const first = await client.get('/security?action=portal.test_step');
    expect(first.status).toBe(200);
    const firstIds = ids(first.text);
    expect(firstIds).toHaveLength(50);
    const older = /id="older-page" href="\/security\?([^"]+)"/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    expect(new URLSearchParams(older).get('action')).toBe('portal.test_step');
    const second = await client.get(`/security?${older}`);
    const secondIds = ids(second.text);
    expect(secondIds).toHaveLength(5);
    const all = [...firstIds, ...secondIds].map(BigInt);
    expect(all).toEqual([...all].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    expect(second.text).toContain('id="newest-page"');
    expect(second.text).not.toContain('id="older-page"');

    const byOwner = await client.get(`/security?user=${owner.id}`);
    const ownerRows = await portal.db.auditEntry.findMany({
      where: { merchantId, merchantUserId: owner.id },
      orderBy: { id: 'desc' },
    });
    expect(ids(byOwner.text)).toEqual(ownerRows.map((r) => r.id.toString()));
    expect(byOwner.text).toContain(`<option value="${owner.id}" selected>`);
  });

  it('refuses a bad filter with a 400 and lists nothing: another merchant user, a made-up action, a damaged link', async () => {
    const client = await signedIn(owner);
    for (const query of [
      `user=${stranger.id}`,
      'user=nope',
      'action=DROP%20TABLE',
      'before=12x',
      'action=a&action=b',
    ]) {
      const page = await client.get(`/security?${query}`);
      expect(page.status).toBe(400);
      expect(page.text).toContain('id="filter-errors"');
      expect(ids(page.text)).toEqual([]);
    }
  });

  it.each(['developer', 'finance', 'viewer'] as const)('is forbidden to a %s, and out of its header', async (role) => {
    const user = await portal.createUser(merchantId, role);
    const client = await signedIn(user);
    expect((await client.get('/security')).status).toBe(403);
    expect((await client.get('/')).text).not.toContain('data-nav="security"');
    const post = await client.post('/security/two-factor-required', { required: 'on', code: portal.codeOf(user) });
    expect(post.status).toBe(403);
    expect(await required(merchantId)).toBe(false);
  });

  it('lets an admin read the log and the setting, but only an owner change it', async () => {
    const client = await signedIn(admin);
    const page = await client.get('/security');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-nav="security"');
    expect(page.text).not.toContain('id="team-two-factor-form"');
    const post = await client.post('/security/two-factor-required', { required: 'on', code: portal.codeOf(admin) });
    expect(post.status).toBe(403);
    expect(await required(merchantId)).toBe(false);
  });

  it("changes the team setting only with the owner's current code, audited with before and after", async () => {
    const client = await signedIn(owner);
    await client.get('/security');
    expect((await client.post('/security/two-factor-required', { required: 'on', code: '' })).status).toBe(400);
    expect((await client.post('/security/two-factor-required', { required: 'maybe', code: '1' })).status).toBe(400);
    const wrong = portal.codeOf(owner) === '000000' ? '111111' : '000000';
    const refused = await client.post('/security/two-factor-required', { required: 'on', code: wrong });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('id="security-error"');
    expect(await required(merchantId)).toBe(false);

    const on = await client.post('/security/two-factor-required', { required: 'on', code: portal.codeOf(owner) });
    expect(on.status).toBe(303);
    expect((await client.get(on.location!)).text).toContain('data-required="yes"');
    expect(await required(merchantId)).toBe(true);
    const row = await portal.db.auditEntry.findFirstOrThrow({
      where: { merchantId, action: 'portal.team_two_factor' },
      orderBy: { id: 'desc' },
    });
    expect(row).toMatchObject({
      merchantUserId: owner.id,
      before: { requireTwoFactor: false },
      after: { requireTwoFactor: true },
    });

    portal.clock.now += 30_000;
    const off = await client.post('/security/two-factor-required', { required: 'off', code: portal.codeOf(owner) });
    expect(off.status).toBe(303);
    expect(await required(merchantId)).toBe(false);
  });

  it('refuses the setting to an owner without two-factor: set it up first', async () => {
    const shop = await portal.createMerchant('No 2FA shop');
    const bare = await portal.createUser(shop, 'owner', { twoFactor: false });
    const client = await signedIn(bare);
    await client.get('/security');
    const res = await client.post('/security/two-factor-required', { required: 'on', code: '123456' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('id="security-error"');
    expect(res.text).toContain('in &quot;My account&quot; first');
    expect(await required(shop)).toBe(false);
  });

  it('sends a member without two-factor to My account while the team requires it, until they set it up', async () => {
    const shop = await portal.createMerchant('Strict shop');
    await portal.db.merchant.update({ where: { id: shop }, data: { requireTwoFactor: true } });
    const member = await portal.createUser(shop, 'admin', { twoFactor: false });
    const client = portal.client(EN);
    await client.get('/login');
    const signIn = await client.post('/login', { email: member.email, password: TEST_PASSWORD });
    expect(signIn.location).toBe('/');
    for (const path of ['/', '/security', '/payments']) {
      const res = await client.get(path);
      expect(res.status).toBe(303);
      expect(res.location).toBe('/account?two_factor=required');
    }
    const account = await client.get('/account?two_factor=required');
    expect(account.status).toBe(200);
    expect(account.text).toContain('id="account-notice"');
    expect((await client.post('/security/two-factor-required', { required: 'off', code: '1' })).location).toBe(
      '/account?two_factor=required',
    );
    expect((await client.post('/language', { lang: 'fr', back: '/account' })).location).toBe('/account');

    await client.post('/account/two-factor/start');
    const secret = /id="totp-secret">([^<]+)</.exec((await client.get('/account')).text)![1]!.replace(/\s/g, '');
    expect(
      (await client.post('/account/two-factor/confirm', { code: totpCode(secret, portal.clock.now) })).status,
    ).toBe(200);
    expect((await client.get('/')).status).toBe(200);
    expect((await client.post('/logout')).location).toBe('/login?signed_out=1');
  });
});
