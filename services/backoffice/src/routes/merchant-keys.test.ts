import { findActiveKey } from '@mm/db/merchants';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import {
  changeAudit,
  issuedKeyOf,
  loggedIn,
  occurrences,
  seedMerchant,
} from '../test-support/merchant-test-helpers.js';

const HOUR_MS = 3_600_000;

describe('backoffice API keys: create, rotate with a grace period, revoke', () => {
  let bo: BackofficeFixture;
  // The back-office's clock, moved by hand: a rotation made "2 hours ago" with 1 hour of grace has ended.
  let clockOffsetMs = 0;
  // The clock's last reading: right after a POST, the instant its handler used.
  let serverNow = 0;
  beforeAll(async () => {
    bo = await startBackofficeFixture({}, { now: () => (serverNow = Date.now() + clockOffsetMs) });
  });
  afterAll(async () => {
    await bo.stop();
  });
  afterEach(() => {
    clockOffsetMs = 0;
  });
  const keyRow = (apiKey: string) => bo.db.apiKey.findUniqueOrThrow({ where: { apiKey } });
  const works = async (apiKey: string) => (await findActiveKey(bo.db, bo.box, apiKey)) !== null;

  it('an admin creates another key: the secret is shown once, the key works next to the first, one audit row without the secret', async () => {
    const m = await seedMerchant(bo, 'Two Keys');
    const { staff, client } = await loggedIn(bo, 'admin');
    const page = await client.get(`/merchants/${m.id}`);
    expect(page.text).toContain(`<form method="post" action="/merchants/${m.id}/keys">`);

    const res = await client.post(`/merchants/${m.id}/keys`);
    expect(res.status).toBe(201);
    const { apiKey, apiSecret } = issuedKeyOf(res);
    expect(occurrences(res.text, apiSecret)).toBe(1);
    expect(await findActiveKey(bo.db, bo.box, apiKey)).toMatchObject({ merchantId: m.id, secret: apiSecret });
    expect(await works(m.key.apiKey)).toBe(true);

    const audit = await changeAudit(bo, { targetId: apiKey });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      staffId: staff.id,
      action: 'api_key.create',
      targetType: 'api_key',
      before: null,
      after: { merchantId: m.id, apiKey, revokedAt: null },
    });
    expect(JSON.stringify(audit[0]!.after)).not.toContain(apiSecret);
    const later = await client.get(`/merchants/${m.id}`);
    expect(later.text).toContain(`<tr data-api-key="${apiKey}">`);
    expect(later.text).not.toContain(apiSecret);
  });

  it.each([
    [0, '0'],
    [3600, '3600'],
    [86_400, '86400'],
    [604_800, '604800'],
  ])(
    'rotation with %i s of grace: a new key at once, the old one kept until then, one audit row',
    async (graceS, field) => {
      const m = await seedMerchant(bo, `Rotate ${graceS}`);
      const { staff, client } = await loggedIn(bo, 'admin');
      const page = await client.get(`/merchants/${m.id}`);
      // The form offers the four periods, 24 hours by default.
      expect(page.text).toContain('<option value="86400" selected>24 hours</option>');
      expect(page.text).toMatch(/<option value="0">[^<]+<\/option><option value="3600">1 hour<\/option>/);

      const res = await client.post(`/merchants/${m.id}/keys/${m.key.apiKey}/rotate`, { grace_s: field });
      expect(res.status).toBe(201);
      const fresh = issuedKeyOf(res);
      expect(occurrences(res.text, fresh.apiSecret)).toBe(1);
      const expiresAt = new Date(serverNow + graceS * 1000);
      expect((await keyRow(m.key.apiKey)).revokedAt).toEqual(expiresAt);
      expect(await findActiveKey(bo.db, bo.box, fresh.apiKey)).toMatchObject({
        merchantId: m.id,
        secret: fresh.apiSecret,
      });
      expect(await works(m.key.apiKey)).toBe(graceS > 0);
      expect(res.text).toContain(
        graceS > 0 ? `keeps working until <time datetime="${expiresAt.toISOString()}">` : 'no longer works.',
      );

      const audit = await changeAudit(bo, { targetId: m.key.apiKey });
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        staffId: staff.id,
        action: 'api_key.rotate',
        targetType: 'api_key',
        before: { merchantId: m.id, apiKey: m.key.apiKey, revokedAt: null },
        after: {
          merchantId: m.id,
          apiKey: m.key.apiKey,
          revokedAt: expiresAt.toISOString(),
          graceS,
          newApiKey: fresh.apiKey,
        },
      });
      expect(await changeAudit(bo, { targetId: fresh.apiKey })).toHaveLength(0);
      expect(JSON.stringify(audit.map((a) => [a.before, a.after]))).not.toContain(fresh.apiSecret);
      expect((await client.get(`/merchants/${m.id}`)).text).not.toContain(fresh.apiSecret);
    },
  );

  it('the old key stops working when its grace period ends, and revoking it during the grace ends it at once', async () => {
    const m = await seedMerchant(bo, 'Grace');
    const { client } = await loggedIn(bo, 'admin');
    // Rotated 2 hours ago with 1 hour of grace: over.
    clockOffsetMs = -2 * HOUR_MS;
    await client.get(`/merchants/${m.id}`);
    expect((await client.post(`/merchants/${m.id}/keys/${m.key.apiKey}/rotate`, { grace_s: '3600' })).status).toBe(201);
    expect(await works(m.key.apiKey)).toBe(false);
    clockOffsetMs = 0;

    const second = await seedMerchant(bo, 'Grace 2');
    await client.get(`/merchants/${second.id}`);
    expect(
      (await client.post(`/merchants/${second.id}/keys/${second.key.apiKey}/rotate`, { grace_s: '604800' })).status,
    ).toBe(201);
    expect(await works(second.key.apiKey)).toBe(true);
    const graceEnd = (await keyRow(second.key.apiKey)).revokedAt!;
    const page = await client.get(`/merchants/${second.id}`);
    expect(page.text).toContain(`expires at <time datetime="${graceEnd.toISOString()}">`);
    // A key in its grace period can be revoked, not rotated again (that would move its end).
    expect(
      (await client.post(`/merchants/${second.id}/keys/${second.key.apiKey}/rotate`, { grace_s: '604800' })).status,
    ).toBe(409);

    const revoked = await client.post(`/merchants/${second.id}/keys/${second.key.apiKey}/revoke`);
    expect(revoked).toMatchObject({ status: 303, location: `/merchants/${second.id}?done=revoked` });
    expect(await works(second.key.apiKey)).toBe(false);
    expect((await keyRow(second.key.apiKey)).revokedAt).toEqual(new Date(serverNow));
    const audit = await changeAudit(bo, { targetId: second.key.apiKey });
    expect(audit.map((a) => a.action)).toEqual(['api_key.rotate', 'api_key.revoke']);
    expect(audit[1]).toMatchObject({
      before: { revokedAt: graceEnd.toISOString() },
      after: { revokedAt: new Date(serverNow).toISOString() },
    });
  });

  it('an admin revokes an active key: it stops working at once, one audit row; revoking it again changes nothing', async () => {
    const m = await seedMerchant(bo, 'Revoke');
    const { staff, client } = await loggedIn(bo, 'admin');
    await client.get(`/merchants/${m.id}`);
    expect(await client.post(`/merchants/${m.id}/keys/${m.key.apiKey}/revoke`)).toMatchObject({
      status: 303,
      location: `/merchants/${m.id}?done=revoked`,
    });
    const revokedAt = new Date(serverNow);
    expect(await works(m.key.apiKey)).toBe(false);
    expect((await keyRow(m.key.apiKey)).revokedAt).toEqual(revokedAt);
    expect(await client.post(`/merchants/${m.id}/keys/${m.key.apiKey}/revoke`)).toMatchObject({
      status: 303,
      location: `/merchants/${m.id}?done=unchanged`,
    });
    expect((await client.post(`/merchants/${m.id}/keys/${m.key.apiKey}/rotate`, { grace_s: '0' })).status).toBe(409);
    const audit = await changeAudit(bo, { targetId: m.key.apiKey });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      staffId: staff.id,
      action: 'api_key.revoke',
      before: { apiKey: m.key.apiKey, revokedAt: null },
      after: { apiKey: m.key.apiKey, revokedAt: revokedAt.toISOString() },
    });
    const page = await client.get(`/merchants/${m.id}?done=revoked`);
    expect(page.text).toContain('The key is revoked');
    expect(page.text).not.toContain(`/keys/${m.key.apiKey}/revoke`);
  });

  it('refuses a grace period not offered, and a key of another merchant reached through this one, changing nothing', async () => {
    const m = await seedMerchant(bo, 'Strict');
    const other = await seedMerchant(bo, 'Elsewhere');
    const { client } = await loggedIn(bo, 'admin');
    await client.get(`/merchants/${m.id}`);
    for (const grace of ['5', '', '-3600', '1e3', '86400.0']) {
      const res = await client.post(`/merchants/${m.id}/keys/${m.key.apiKey}/rotate`, { grace_s: grace });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Choose how long the old key keeps working');
    }
    expect((await client.post(`/merchants/${m.id}/keys/${other.key.apiKey}/rotate`, { grace_s: '0' })).status).toBe(
      404,
    );
    expect((await client.post(`/merchants/${m.id}/keys/${other.key.apiKey}/revoke`)).status).toBe(404);
    expect((await client.post(`/merchants/${m.id}/keys/pk_unknown/revoke`)).status).toBe(404);
    expect(await works(m.key.apiKey)).toBe(true);
    expect(await works(other.key.apiKey)).toBe(true);
    expect(await bo.db.apiKey.count({ where: { merchantId: { in: [m.id, other.id] } } })).toBe(2);
    expect(await changeAudit(bo, { targetId: m.key.apiKey })).toHaveLength(0);
    expect(await changeAudit(bo, { targetId: other.key.apiKey })).toHaveLength(0);
  });
});
