/**
 * Staff invite a merchant's owner from its page: the portal's invitation (role owner, by staff) and the
 * portal's mail, read back from a real SMTP server; audited as the staff member; viewers and unknown
 * merchants change nothing.
 */
import { createHash } from 'node:crypto';
import { startMailCatcher, type MailCatcher } from '@mm/mail/mail-catcher';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import { loggedIn, seedMerchant } from '../test-support/merchant-test-helpers.js';

describe('backoffice: invite a merchant owner', () => {
  let bo: BackofficeFixture;
  let mail: MailCatcher;
  beforeAll(async () => {
    mail = await startMailCatcher();
    bo = await startBackofficeFixture({ SMTP_URL: mail.url, PORTAL_PUBLIC_URL: 'https://dashboard.test' });
  });
  afterAll(async () => {
    await bo.stop();
    await mail.stop();
  });

  it('creates an owner invitation by staff, sends the portal mail with its link, and audits it', async () => {
    const m = await seedMerchant(bo, 'Boutique Live');
    const { staff, client } = await loggedIn(bo, 'admin');
    await client.get(`/merchants/${m.id}`);
    const sent = await client.post(`/merchants/${m.id}/invite-owner`, { email: 'Owner@Live.Test', locale: 'en' });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`/merchants/${m.id}?done=owner-invited`);
    const message = await mail.next('owner@live.test');
    expect(message.subject).toBe('Invitation to join Boutique Live');
    expect(message.text).toContain('as Owner');
    const token = /https:\/\/dashboard\.test\/invitations\/([A-Za-z0-9_-]{43})/.exec(message.text!)?.[1];
    const row = await bo.db.merchantInvitation.findFirstOrThrow({ where: { merchantId: m.id } });
    expect(row).toMatchObject({ email: 'owner@live.test', role: 'owner', invitedByStaffId: staff.id, invitedBy: null });
    expect(row.tokenHash).toBe(createHash('sha256').update(token!).digest('hex'));
    const audit = await bo.db.auditEntry.findFirstOrThrow({ where: { action: 'merchant.owner_invited' } });
    expect(audit).toMatchObject({ staffId: staff.id, targetId: row.id });
  });

  it('refuses a bad address on the page, and answers 404 for an unknown merchant, inviting nobody', async () => {
    const m = await seedMerchant(bo, 'Other Live');
    const { client } = await loggedIn(bo, 'admin');
    await client.get(`/merchants/${m.id}`);
    const bad = await client.post(`/merchants/${m.id}/invite-owner`, { email: 'nope', locale: 'en' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Type a valid email address.');
    const unknown = await client.post('/merchants/00000000-0000-4000-8000-000000000000/invite-owner', {
      email: 'x@live.test',
      locale: 'en',
    });
    expect(unknown.status).toBe(404);
    expect(await bo.db.merchantInvitation.count({ where: { merchantId: m.id } })).toBe(0);
  });

  it('is refused to a viewer', async () => {
    const m = await seedMerchant(bo, 'Viewer Live');
    const { client } = await loggedIn(bo, 'viewer');
    await client.get(`/merchants/${m.id}`);
    const res = await client.post(`/merchants/${m.id}/invite-owner`, { email: 'v@live.test', locale: 'en' });
    expect(res.status).toBe(403);
    expect(await bo.db.merchantInvitation.count({ where: { merchantId: m.id } })).toBe(0);
  });
});
