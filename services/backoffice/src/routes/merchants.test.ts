import { Writable } from 'node:stream';
import { apiKeySecretBinding } from '@mm/db';
import { findActiveKey } from '@mm/db/merchants';
import { createLogger } from '@mm/observability';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import {
  changeAudit,
  issuedKeyOf,
  loggedIn,
  occurrences,
  seedMerchant,
} from '../test-support/merchant-test-helpers.js';

describe('backoffice merchants', () => {
  let bo: BackofficeFixture;
  // Every log line of the service, at the most verbose level, to prove no secret is ever logged.
  let logs = '';
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs += String(chunk);
        done();
      },
    });
    bo = await startBackofficeFixture({}, { logger: createLogger('backoffice-test', 'trace', sink) });
  });
  afterAll(async () => {
    await bo.stop();
  });
  const merchantRow = (id: string) => bo.db.merchant.findUniqueOrThrow({ where: { id } });

  it('a viewer sees the list and a merchant page with its keys, escaped, without any form to change them', async () => {
    const m = await seedMerchant(bo, '<b>Chez Awa</b>', 'https://awa.example/hooks');
    // A key in its grace period after a rotation, and a revoked one.
    const expiring = new Date(Date.now() + 3_600_000);
    const rotated = await bo.db.apiKey.create({
      data: {
        merchantId: m.id,
        apiKey: 'pk_rotated_in_grace',
        secretCiphertext: bo.box.seal('sk_x', apiKeySecretBinding({ merchantId: m.id, apiKey: 'pk_rotated_in_grace' })),
        revokedAt: expiring,
      },
    });
    const revoked = '2020-01-01T00:00:00.000Z';
    const old = await bo.db.apiKey.create({
      data: {
        merchantId: m.id,
        apiKey: 'pk_old_revoked',
        secretCiphertext: bo.box.seal('sk_y', apiKeySecretBinding({ merchantId: m.id, apiKey: 'pk_old_revoked' })),
        revokedAt: new Date(revoked),
      },
    });
    const { client } = await loggedIn(bo, 'viewer');

    const list = await client.get('/merchants');
    expect(list.status).toBe(200);
    expect(list.text).toContain('data-nav="merchants" aria-current="page"');
    expect(list.text).toContain('data-nav="subsidiaries"');
    expect(list.text).toContain(`<tr data-merchant-id="${m.id}">`);
    expect(list.text).toContain('&lt;b&gt;Chez Awa&lt;/b&gt;');
    expect(list.text).toContain('https://awa.example/hooks');
    expect(list.text).not.toContain('<b>Chez');
    expect(list.text).not.toContain('id="merchant-create"');

    const page = await client.get(`/merchants/${m.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-nav="merchants" aria-current="page"');
    const row = (apiKey: string) =>
      new RegExp(`<tr data-api-key="${apiKey}">[\\s\\S]*?</tr>`).exec(page.text)?.[0] ?? '';
    expect(row(m.key.apiKey)).toContain('<span class="badge">active</span>');
    expect(row(rotated.apiKey)).toContain(`expires at <time datetime="${expiring.toISOString()}">`);
    expect(row(old.apiKey)).toContain('<span class="badge off">revoked</span>');
    expect(row(old.apiKey)).toContain(`<time datetime="${revoked}">`);
    // Only the logout form: no change is offered to a viewer.
    expect(occurrences(page.text, '<form method="post"')).toBe(1);
    expect(page.text).toContain('action="/logout"');
    expect(page.text).not.toContain(m.key.apiSecret);
  });

  it("an admin creates a merchant: the first key's secret is shown once in the answer, sealed at rest, never logged nor audited nor shown again", async () => {
    const { staff, client } = await loggedIn(bo, 'admin');
    const form = await client.get('/merchants');
    expect(form.text).toContain('<form method="post" action="/merchants">');
    const logsBefore = logs.length;

    const res = await client.post('/merchants', {
      name: '  Boutique Kone  ',
      webhook_url: 'https://kone.example/webhooks',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { apiKey, apiSecret } = issuedKeyOf(res);
    expect(apiKey).toMatch(/^pk_[0-9a-f]{32}$/);
    expect(apiSecret).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(occurrences(res.text, apiSecret)).toBe(1);
    expect(res.text).toContain('it is shown on this page only');

    const key = await bo.db.apiKey.findUniqueOrThrow({ where: { apiKey } });
    const merchant = await merchantRow(key.merchantId);
    expect(merchant).toMatchObject({
      name: 'Boutique Kone',
      status: 'ACTIVE',
      webhookUrl: 'https://kone.example/webhooks',
    });
    expect(key.secretCiphertext).not.toContain(apiSecret);
    expect(bo.box.open(key.secretCiphertext, apiKeySecretBinding(key))).toBe(apiSecret);
    expect(await findActiveKey(bo.db, bo.box, apiKey)).toMatchObject({
      merchantId: merchant.id,
      merchantStatus: 'ACTIVE',
      secret: apiSecret,
    });

    const audit = await changeAudit(bo, { targetId: merchant.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      staffId: staff.id,
      actor: staff.email,
      action: 'merchant.create',
      targetType: 'merchant',
      before: null,
      after: { name: 'Boutique Kone', status: 'ACTIVE', webhookUrl: 'https://kone.example/webhooks', apiKey },
    });
    const allAudit = JSON.stringify(await bo.db.auditEntry.findMany(), (_k, v: unknown) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(allAudit).not.toContain(apiSecret);
    expect(allAudit).not.toContain(key.secretCiphertext);

    // Later pages: never again, and nothing of it left in the session.
    for (const path of ['/merchants', `/merchants/${merchant.id}`]) {
      const later = await client.get(path);
      expect(later.status).toBe(200);
      expect(later.text).not.toContain(apiSecret);
    }
    expect((await client.get(`/merchants/${merchant.id}`)).text).toContain(`<tr data-api-key="${apiKey}">`);
    expect(await bo.redis.get(bo.sessionKey(client.sessionId()!))).not.toContain(apiSecret);
    expect(logs.length).toBeGreaterThan(logsBefore);
    expect(logs).not.toContain(apiSecret);
  });

  it('refuses a bad webhook URL or a missing name with a clear message, keeps what was typed, and creates nothing', async () => {
    const { client } = await loggedIn(bo, 'admin');
    const count = await bo.db.merchant.count();
    const audited = (await changeAudit(bo)).length;
    for (const url of [
      'ftp://files.example/in',
      'javascript:alert(1)',
      'shop.example/hooks',
      'https://user:pw@shop.example/x',
    ]) {
      await client.get('/merchants');
      const res = await client.post('/merchants', { name: 'Refused Shop', webhook_url: url });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(
        /id="merchant-webhook-url-error" role="alert">The default webhook URL must (be a full http:\/\/ or https:\/\/ address|not contain a user name or password)/,
      );
      expect(res.text).toContain('value="Refused Shop"');
      expect(res.text).not.toContain('issued-api-secret');
    }
    const noName = await client.post('/merchants', { name: '   ', webhook_url: '' });
    expect(noName.status).toBe(400);
    expect(noName.text).toContain('The merchant name is required.');
    expect(await bo.db.merchant.count()).toBe(count);
    expect(await changeAudit(bo)).toHaveLength(audited);
  });

  it('an admin disables and re-enables a merchant, one audit row each; the key then reads as disabled', async () => {
    const m = await seedMerchant(bo, 'Toggle Shop');
    const { staff, client } = await loggedIn(bo, 'admin');
    const page = await client.get(`/merchants/${m.id}`);
    expect(page.text).toContain(`action="/merchants/${m.id}/disable"`);

    expect(await client.post(`/merchants/${m.id}/disable`)).toMatchObject({
      status: 303,
      location: `/merchants/${m.id}?done=disabled`,
    });
    expect((await merchantRow(m.id)).status).toBe('DISABLED');
    expect((await findActiveKey(bo.db, bo.box, m.key.apiKey))?.merchantStatus).toBe('DISABLED');
    const after = await client.get(`/merchants/${m.id}?done=disabled`);
    expect(after.text).toContain('The merchant is disabled');
    expect(after.text).toContain(`action="/merchants/${m.id}/enable"`);
    // Twice: nothing more to do, nothing recorded.
    expect(await client.post(`/merchants/${m.id}/disable`)).toMatchObject({
      status: 303,
      location: `/merchants/${m.id}?done=unchanged`,
    });

    expect(await client.post(`/merchants/${m.id}/enable`)).toMatchObject({
      status: 303,
      location: `/merchants/${m.id}?done=enabled`,
    });
    expect((await merchantRow(m.id)).status).toBe('ACTIVE');
    const audit = await changeAudit(bo, { targetId: m.id });
    expect(audit.map((a) => a.action)).toEqual(['merchant.disable', 'merchant.enable']);
    expect(audit[0]).toMatchObject({
      staffId: staff.id,
      targetType: 'merchant',
      before: { name: 'Toggle Shop', status: 'ACTIVE' },
      after: { name: 'Toggle Shop', status: 'DISABLED' },
    });
    expect(audit[1]).toMatchObject({ before: { status: 'DISABLED' }, after: { status: 'ACTIVE' } });
  });

  it('an admin changes and removes the default webhook URL; a bad one is refused with a clear message and changes nothing', async () => {
    const m = await seedMerchant(bo, 'Hook Shop', 'https://old.example/hooks');
    const { client } = await loggedIn(bo, 'admin');
    await client.get(`/merchants/${m.id}`);

    const bad = await client.post(`/merchants/${m.id}/webhook-url`, { webhook_url: 'ftp://new.example/hooks' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(
      'id="webhook-url-error" role="alert">The default webhook URL must be a full http:// or https:// address',
    );
    expect(bad.text).toContain('value="ftp://new.example/hooks"');
    expect((await merchantRow(m.id)).webhookUrl).toBe('https://old.example/hooks');
    expect(await changeAudit(bo, { targetId: m.id })).toHaveLength(0);

    expect(
      await client.post(`/merchants/${m.id}/webhook-url`, { webhook_url: ' http://new.example/hooks ' }),
    ).toMatchObject({ status: 303, location: `/merchants/${m.id}?done=webhook-url` });
    expect((await merchantRow(m.id)).webhookUrl).toBe('http://new.example/hooks');
    expect(await client.post(`/merchants/${m.id}/webhook-url`, { webhook_url: '' })).toMatchObject({ status: 303 });
    expect((await merchantRow(m.id)).webhookUrl).toBeNull();

    const audit = await changeAudit(bo, { targetId: m.id });
    expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
      ['merchant.webhook_url', { webhookUrl: 'https://old.example/hooks' }, { webhookUrl: 'http://new.example/hooks' }],
      ['merchant.webhook_url', { webhookUrl: 'http://new.example/hooks' }, { webhookUrl: null }],
    ]);
  });

  it('an unknown or malformed merchant id is 404, for pages and changes alike', async () => {
    const { client } = await loggedIn(bo, 'admin');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await client.get(`/merchants/${id}`)).status).toBe(404);
      expect((await client.post(`/merchants/${id}/disable`)).status).toBe(404);
      expect((await client.post(`/merchants/${id}/webhook-url`, { webhook_url: 'https://x.example' })).status).toBe(
        404,
      );
      expect((await client.post(`/merchants/${id}/keys`)).status).toBe(404);
    }
  });
});
