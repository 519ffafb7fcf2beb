/**
 * The Team page and invitations over HTTP, with the mail read back from the suite's SMTP server: an
 * invitation followed for real, single use, replaced, revoked and expired links; roles and removals within
 * the rules; another merchant's ids answering 404 with nothing changed; every change audited.
 */
import { createInvitation } from '@mm/db/merchant-users';
import { startPortalFixture, type PortalFixture, type PortalUser } from '../test-support/portal-fixture.js';

const EN = { 'accept-language': 'en' };
const NEW_PASSWORD = 'a brand new password';

describe('merchant portal: team', () => {
  let portal: PortalFixture;
  let merchantId: string;
  let otherId: string;
  let owner: PortalUser;
  let admin: PortalUser;
  let viewer: PortalUser;
  let stranger: PortalUser;

  beforeAll(async () => {
    portal = await startPortalFixture();
    merchantId = await portal.createMerchant('Boutique Awa');
    otherId = await portal.createMerchant('Other shop');
    owner = await portal.createUser(merchantId, 'owner');
    admin = await portal.createUser(merchantId, 'admin');
    viewer = await portal.createUser(merchantId, 'viewer', { twoFactor: false });
    stranger = await portal.createUser(otherId, 'owner');
  });
  afterAll(() => portal.stop());

  const signedIn = async (user: PortalUser) => {
    const client = portal.client(EN);
    await portal.signIn(client, user);
    await client.get('/team');
    return client;
  };
  const invitationsOf = (email: string) =>
    portal.db.merchantInvitation.findMany({ where: { email }, orderBy: { createdAt: 'asc' } });
  const linkIn = (text: string) => {
    const m = /https:\/\/portal\.test(\/invitations\/[A-Za-z0-9_-]{43})/.exec(text);
    if (!m) throw new Error(`no invitation link in: ${text}`);
    return m[1]!;
  };
  const auditActions = async () =>
    (await portal.db.auditEntry.findMany({ where: { merchantId }, orderBy: { id: 'asc' } })).map((a) => a.action);

  it('invites by mail; the link shows the merchant and role, creates the member once and signs them in', async () => {
    const client = await signedIn(owner);
    const since = portal.mail.messages.length;
    const sent = await client.post('/team/invitations', { email: 'Fatou@Shop.Test', role: 'finance', locale: 'fr' });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe('/team?done=invited');
    const mail = await portal.mail.next('fatou@shop.test', since);
    expect(mail.subject).toBe('Invitation à rejoindre Boutique Awa');
    const [row] = await invitationsOf('fatou@shop.test');
    expect(row).toMatchObject({ merchantId, role: 'finance', locale: 'fr', invitedBy: owner.id, acceptedAt: null });
    expect(mail.text).not.toContain(row!.tokenHash);
    const page = await client.get('/team?done=invited');
    expect(page.text).toContain('The invitation has been sent.');
    expect(page.text).toContain(`data-invitation-id="${row!.id}"`);

    const link = linkIn(mail.text!);
    const guest = portal.client(EN);
    const form = await guest.get(link);
    expect(form.status).toBe(200);
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.text).toContain('<strong>Boutique Awa</strong> as <strong>Finance</strong>');
    const short = await guest.post(link, { name: 'Fatou', password: 'short', confirm: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('12 characters at least');
    const mismatch = await guest.post(link, { name: 'Fatou', password: NEW_PASSWORD, confirm: `${NEW_PASSWORD}!` });
    expect(mismatch.status).toBe(400);
    expect(await portal.db.merchantUser.count({ where: { email: 'fatou@shop.test' } })).toBe(0);

    const accepted = await guest.post(link, { name: 'Fatou Diop', password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/');
    const user = await portal.db.merchantUser.findUniqueOrThrow({ where: { email: 'fatou@shop.test' } });
    expect(user).toMatchObject({ merchantId, role: 'finance', name: 'Fatou Diop' });
    expect((await invitationsOf('fatou@shop.test'))[0]!.acceptedAt).not.toBeNull();
    // Accepting signed them in: the team shows it as their last sign-in, not "Never".
    const team = (await guest.get('/team')).text;
    const memberRow = new RegExp(`<tr data-member-id="${user.id}">[\\s\\S]*?</tr>`).exec(team)?.[0];
    expect(memberRow).toBeDefined();
    expect(memberRow).not.toContain('Never');
    expect(memberRow).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    expect(await auditActions()).toEqual(
      expect.arrayContaining(['portal.team.invitation_created', 'portal.team.invitation_accepted']),
    );

    const again = await portal.client(EN).get(link);
    expect(again.status).toBe(410);
    expect(again.text).toContain('This link has already been used.');
    expect((await portal.client(EN).get('/invitations/not-a-token')).status).toBe(404);
  });

  it('refuses an owner invited by an admin, and an address that has an account, changing nothing', async () => {
    const client = await signedIn(admin);
    const before = await portal.db.merchantInvitation.count();
    const asOwner = await client.post('/team/invitations', { email: 'boss@shop.test', role: 'owner', locale: 'en' });
    expect(asOwner.status).toBe(409);
    expect(asOwner.text).toContain('Only an owner can give');
    const taken = await client.post('/team/invitations', { email: stranger.email, role: 'viewer', locale: 'en' });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('This address already has an account');
    const bad = await client.post('/team/invitations', { email: 'not an email', role: 'viewer', locale: 'en' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Type a valid email address.');
    expect(await portal.db.merchantInvitation.count()).toBe(before);
  });

  it('replaces a pending invitation when the same address is invited again; a revoked link is a 410', async () => {
    const client = await signedIn(admin);
    const since = portal.mail.messages.length;
    await client.post('/team/invitations', { email: 'twice@shop.test', role: 'viewer', locale: 'en' });
    const first = await portal.mail.next('twice@shop.test', since);
    await client.post('/team/invitations', { email: 'twice@shop.test', role: 'developer', locale: 'en' });
    const second = await portal.mail.next('twice@shop.test', portal.mail.messages.indexOf(first) + 1);
    const old = await portal.client(EN).get(linkIn(first.text!));
    expect(old.status).toBe(410);
    expect(old.text).toContain('This invitation has been withdrawn.');
    expect((await portal.client(EN).get(linkIn(second.text!))).text).toContain('<strong>Developer</strong>');

    const open = (await invitationsOf('twice@shop.test')).find((i) => i.revokedAt === null)!;
    // Another merchant's owner, with this merchant's invitation id: 404, still pending.
    const outsider = await signedIn(stranger);
    expect((await outsider.post(`/team/invitations/${open.id}/revoke`)).status).toBe(404);
    expect((await portal.db.merchantInvitation.findUniqueOrThrow({ where: { id: open.id } })).revokedAt).toBeNull();

    await client.get('/team');
    const revoked = await client.post(`/team/invitations/${open.id}/revoke`);
    expect(revoked.location).toBe('/team?done=revoked');
    expect((await portal.client(EN).get(linkIn(second.text!))).status).toBe(410);
    expect(await auditActions()).toContain('portal.team.invitation_revoked');
  });

  it('changes roles within the rules, and never another merchant’s member', async () => {
    const member = await portal.createUser(merchantId, 'developer', { twoFactor: false });
    const asAdmin = await signedIn(admin);
    const toOwner = await asAdmin.post(`/team/members/${member.id}/role`, { role: 'owner' });
    expect(toOwner.status).toBe(409);
    const ownerDown = await asAdmin.post(`/team/members/${owner.id}/role`, { role: 'viewer' });
    expect(ownerDown.status).toBe(409);
    const self = await asAdmin.post(`/team/members/${admin.id}/role`, { role: 'viewer' });
    expect(self.status).toBe(409);
    expect(self.text).toContain('You cannot change your own role');
    const badRole = await asAdmin.post(`/team/members/${member.id}/role`, { role: 'root' });
    expect(badRole.status).toBe(400);
    const outsiderTarget = await asAdmin.post(`/team/members/${stranger.id}/role`, { role: 'viewer' });
    expect(outsiderTarget.status).toBe(404);
    expect((await portal.db.merchantUser.findUniqueOrThrow({ where: { id: stranger.id } })).role).toBe('owner');
    expect((await portal.db.merchantUser.findUniqueOrThrow({ where: { id: owner.id } })).role).toBe('owner');

    await asAdmin.get('/team');
    const changed = await asAdmin.post(`/team/members/${member.id}/role`, { role: 'finance' });
    expect(changed.location).toBe('/team?done=role_changed');
    expect((await portal.db.merchantUser.findUniqueOrThrow({ where: { id: member.id } })).role).toBe('finance');
    const row = await portal.db.auditEntry.findFirstOrThrow({
      where: { action: 'portal.team.role_changed', targetId: member.id },
    });
    expect(row).toMatchObject({ merchantId, merchantUserId: admin.id, before: { role: 'developer' } });
  });

  it('removes a member, whose session ends at the next click; not yourself, not another merchant’s', async () => {
    const leaving = await portal.createUser(merchantId, 'viewer', { twoFactor: false });
    const theirs = await signedIn(leaving);
    const client = await signedIn(owner);
    expect((await client.post(`/team/members/${owner.id}/remove`)).status).toBe(409);
    expect((await client.post(`/team/members/${stranger.id}/remove`)).status).toBe(404);
    expect((await portal.db.merchantUser.findUniqueOrThrow({ where: { id: stranger.id } })).disabledAt).toBeNull();

    await client.get('/team');
    const removed = await client.post(`/team/members/${leaving.id}/remove`);
    expect(removed.location).toBe('/team?done=removed');
    expect((await portal.db.merchantUser.findUniqueOrThrow({ where: { id: leaving.id } })).disabledAt).not.toBeNull();
    const next = await theirs.get('/team');
    expect(next.status).toBe(303);
    expect(next.location).toMatch(/^\/login/);
    expect((await client.get('/team')).text).not.toContain(`data-member-id="${leaving.id}"`);
    expect(await auditActions()).toContain('portal.team.member_removed');
  });

  it('shows a viewer the team without any form, and refuses their changes', async () => {
    const client = await signedIn(viewer);
    const page = await client.get('/team');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-member-id="${owner.id}"`);
    expect(page.text).not.toContain('id="invite-form"');
    expect(
      (await client.post('/team/invitations', { email: 'x@shop.test', role: 'viewer', locale: 'en' })).status,
    ).toBe(403);
  });

  it('answers 410 for a link past its 72 hours', async () => {
    const client = await signedIn(owner);
    const since = portal.mail.messages.length;
    await client.post('/team/invitations', { email: 'late@shop.test', role: 'viewer', locale: 'en' });
    const mail = await portal.mail.next('late@shop.test', since);
    expect(mail.subject).toBe('Invitation to join Boutique Awa');
    portal.clock.now += 72 * 3600_000;
    const late = await portal.client(EN).get(linkIn(mail.text!));
    expect(late.status).toBe(410);
    expect(late.text).toContain('This link has expired.');
  });

  it('lists the members and the open invitations newest first, 50 a page with older links, filtered by role in the URL', async () => {
    const big = await portal.createMerchant('Big team');
    const boss = await portal.createUser(big, 'owner');
    for (let i = 0; i < 53; i++)
      await portal.createUser(big, i % 10 === 0 ? 'finance' : 'developer', { twoFactor: false });
    const newestFirst = (
      await portal.db.merchantUser.findMany({
        where: { merchantId: big },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      })
    ).map((u) => u.id);
    const idsOn = (text: string) => [...text.matchAll(/<tr data-member-id="([0-9a-f-]{36})"/g)].map((m) => m[1]);
    const client = portal.client(EN);
    await portal.signIn(client, boss);

    const first = await client.get('/team');
    expect(first.status).toBe(200);
    expect(idsOn(first.text)).toEqual(newestFirst.slice(0, 50));
    const older = /<a id="older-members" href="([^"]+)"/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
    expect(older).toBeDefined();
    const second = await client.get(older!);
    expect(idsOn(second.text)).toEqual(newestFirst.slice(50));
    expect(second.text).not.toContain('id="older-members"');
    expect(second.text).toContain('id="newest-members"');

    const finance = await client.get('/team?role=finance');
    const financeIds = (
      await portal.db.merchantUser.findMany({
        where: { merchantId: big, role: 'finance' },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      })
    ).map((u) => u.id);
    expect(financeIds).toHaveLength(6);
    expect(idsOn(finance.text)).toEqual(financeIds);
    expect(finance.text).toContain('<option value="finance" selected>');

    // The invitations page the same way, each list with its own cursor.
    for (let i = 0; i < 52; i++) {
      await portal.db.$transaction((tx) =>
        createInvitation(tx, {
          merchantId: big,
          email: `invited${i}@big.test`,
          role: i % 4 === 0 ? 'finance' : 'viewer',
          locale: 'en',
          invitedBy: { merchantUserId: boss.id },
          now: new Date(portal.clock.now - 60_000 + i * 10),
        }),
      );
    }
    const invitationIdsOn = (text: string) =>
      [...text.matchAll(/<tr data-invitation-id="([0-9a-f-]{36})"/g)].map((m) => m[1]);
    const openNewestFirst = (role?: string) =>
      portal.db.merchantInvitation
        .findMany({
          where: { merchantId: big, ...(role ? { role } : {}) },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        })
        .then((rows) => rows.map((r) => r.id));
    const withInvitations = await client.get('/team');
    expect(invitationIdsOn(withInvitations.text)).toEqual((await openNewestFirst()).slice(0, 50));
    const olderInvitations = /<a id="older-invitations" href="([^"]+)"/
      .exec(withInvitations.text)?.[1]
      ?.replace(/&amp;/g, '&');
    expect(olderInvitations).toBeDefined();
    const invitationsPage2 = await client.get(olderInvitations!);
    expect(invitationIdsOn(invitationsPage2.text)).toEqual((await openNewestFirst()).slice(50));
    // The members list starts again from its newest on the invitations' second page.
    expect(idsOn(invitationsPage2.text)).toEqual(newestFirst.slice(0, 50));
    expect(invitationIdsOn((await client.get('/team?role=finance')).text)).toEqual(await openNewestFirst('finance'));

    for (const bad of [
      '/team?role=king',
      '/team?after=not-a-cursor',
      '/team?invitations_after=2031-01-01T00:00:00.000Z_x',
      '/team?role=finance&role=owner',
    ]) {
      const refused = await client.get(bad);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('This filter cannot be read');
      expect(idsOn(refused.text)).toEqual([]);
      expect(invitationIdsOn(refused.text)).toEqual([]);
    }
  });
});
