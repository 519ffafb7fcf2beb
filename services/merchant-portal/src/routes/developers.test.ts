/**
 * /developers over HTTP: API keys created, rolled and revoked through the back-office's use cases (rows,
 * audit rows, the secret shown once), the webhook URL with the shared checks, the test event and re-sends
 * through the normal delivery path (event, outbox rows), the fresh code each change asks for, roles, and
 * another merchant's ids answering 404 with nothing changed.
 */
import { completeOutbox } from '@mm/db/outbox';
import { createApiKey, keyUsableAt, lookupApiKey } from '@mm/db/merchants';
import { createCashin, transition } from '@mm/db/payments';
import { listMerchantWebhookEvents } from '@mm/db/webhooks';
import type { TestClient } from '@mm/testing';
import { startPortalFixture, type PortalFixture, type PortalUser } from '../test-support/portal-fixture.js';

describe('/developers', () => {
  let portal: PortalFixture;
  let merchantId: string;
  let otherMerchantId: string;
  let developer: PortalUser;
  let client: TestClient;
  let orders = 0;

  beforeAll(async () => {
    portal = await startPortalFixture();
    merchantId = await portal.createMerchant('Boutique Awa');
    otherMerchantId = await portal.createMerchant('Other Shop');
    developer = await portal.createUser(merchantId, 'developer');
    client = portal.client({ 'accept-language': 'en' });
    await portal.signIn(client, developer);
  });
  afterAll(() => portal.stop());

  /** The current code, and the clock moved on so the next one is a new code (each is accepted once). */
  const code = () => {
    const c = portal.codeOf(developer);
    portal.clock.now += 30_000;
    return c;
  };
  const wrongCode = () => (portal.codeOf(developer) === '000000' ? '111111' : '000000');
  const audits = (action: string) =>
    portal.db.auditEntry.findMany({ where: { action, merchantId }, orderBy: { id: 'asc' } });
  const keysOf = (id: string) =>
    portal.db.apiKey.findMany({ where: { merchantId: id }, orderBy: { createdAt: 'asc' } });
  const secretOn = (text: string) => /id="api-secret">(sk_[0-9a-f]+)</.exec(text)?.[1];

  /** A cash-in of the merchant that failed: one transaction.status_changed event, to `notify`. */
  async function failedCashin(owner = merchantId): Promise<{ transactionId: string; eventId: string }> {
    const r = await createCashin(portal.db, {
      merchantId: owner,
      merchantOrderId: `order-${process.pid}-${++orders}`,
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000002',
      motif: null,
      returnUrl: null,
      notifyUrl: 'https://shop.example/notify',
      metadata: null,
      requestFingerprint: 'fp',
    });
    if (r.kind !== 'created') throw new Error('the cash-in was not created');
    const transactionId = r.transaction.id;
    await portal.db.$transaction((tx) => transition(tx, { transactionId, to: 'INITIATED', cause: 'operator-request' }));
    await portal.db.$transaction((tx) =>
      transition(tx, {
        transactionId,
        to: 'FAILED',
        cause: 'operator-result:callback',
        patch: {
          providerState: 'canceled',
          providerTxnStatus: '54321',
          failureCode: 'INSUFFICIENT_BALANCE',
          failureReason: '60019',
        },
      }),
    );
    const event = await portal.db.webhookEvent.findFirstOrThrow({ where: { transactionId }, orderBy: { seq: 'desc' } });
    return { transactionId, eventId: event.id };
  }

  /** As the dispatcher leaves an event after its 7th failure. */
  async function abandon(eventId: string): Promise<void> {
    for (let no = 1; no <= 7; no++) {
      await portal.db.webhookAttempt.create({
        data: {
          eventId,
          attemptNo: no,
          targetUrl: 'https://shop.example/notify',
          statusCode: 500,
          latencyMs: 40,
          success: false,
        },
      });
    }
    await portal.db.webhookEvent.update({
      where: { id: eventId },
      data: { status: 'ABANDONED', attemptCount: 7, nextAttemptAt: null },
    });
    await completeOutbox(portal.db, eventId);
  }

  it('lets a developer see the page, and finance and viewers not', async () => {
    const page = await client.get('/developers');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-nav="developers"');
    for (const role of ['finance', 'viewer'] as const) {
      const other = portal.client({ 'accept-language': 'en' });
      await portal.signIn(other, await portal.createUser(merchantId, role));
      expect((await other.get('/developers')).status).toBe(403);
      expect((await other.get('/developers/webhooks')).status).toBe(403);
      expect((await other.post('/developers/keys', { code: '123456' })).status).toBe(403);
    }
    expect(await keysOf(merchantId)).toHaveLength(0);
  });

  it('creates nothing on a wrong or missing code, and a key with its secret shown once on the right one', async () => {
    const wrong = await client.post('/developers/keys', { code: wrongCode() });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('id="developers-error"');
    expect((await client.post('/developers/keys', {})).status).toBe(400);
    expect(await keysOf(merchantId)).toHaveLength(0);
    expect(await audits('portal.api_key.create')).toHaveLength(0);
    expect((await audits('portal.step_up_failed')).length).toBeGreaterThanOrEqual(1);

    const created = await client.post('/developers/keys', { code: code() });
    expect(created.status).toBe(201);
    const secret = secretOn(created.text)!;
    expect(secret).toMatch(/^sk_[0-9a-f]{64}$/);
    const [key] = await keysOf(merchantId);
    expect(created.text).toContain(key!.apiKey);
    expect(key!.secretCiphertext).not.toContain(secret);
    const [audit] = await audits('portal.api_key.create');
    expect(audit).toMatchObject({
      staffId: null,
      actor: developer.email,
      merchantUserId: developer.id,
      targetType: 'api_key',
      targetId: key!.apiKey,
    });
    expect(JSON.stringify([audit!.before, audit!.after])).not.toContain(secret);

    // Never again: neither on the list nor anywhere the portal shows the key.
    const list = await client.get('/developers');
    expect(list.text).toContain(key!.apiKey);
    expect(list.text).not.toContain(secret);
  });

  it('rolls a key: the old one keeps working for the overlap chosen and not after, audited', async () => {
    const created = await client.post('/developers/keys', { code: code() });
    const oldKey = /id="api-key">(pk_[0-9a-f]+)</.exec(created.text)![1]!;
    const oldSecret = secretOn(created.text)!;

    expect((await client.post(`/developers/keys/${oldKey}/roll`, { grace_s: '3600', code: code() })).status).toBe(400);
    const refused = await client.post(`/developers/keys/${oldKey}/roll`, { grace_s: '86400', code: wrongCode() });
    expect(refused.status).toBe(401);
    expect((await portal.db.apiKey.findUniqueOrThrow({ where: { apiKey: oldKey } })).revokedAt).toBeNull();

    const rollCode = code();
    const at = portal.clock.now;
    const rolled = await client.post(`/developers/keys/${oldKey}/roll`, { grace_s: '86400', code: rollCode });
    expect(rolled.status).toBe(201);
    const newSecret = secretOn(rolled.text)!;
    expect(newSecret).not.toBe(oldSecret);
    expect(rolled.text).toContain('id="old-key-until"');

    // The gateway's lookup: the old secret still opens its key during the overlap, not after it.
    const old = (await lookupApiKey(portal.db, portal.box, oldKey))!;
    expect(old.secret).toBe(oldSecret);
    expect(old.revokedAt?.getTime()).toBe(at + 86_400_000);
    expect(keyUsableAt(old, new Date(at + 86_400_000 - 1000))).toBe(true);
    expect(keyUsableAt(old, new Date(at + 86_400_000 + 1000))).toBe(false);
    const [audit] = await audits('portal.api_key.rotate');
    expect(audit).toMatchObject({ merchantUserId: developer.id, targetId: oldKey, after: { graceS: 86_400 } });

    // A key in its overlap is not rolled again (that could move its end); it can be revoked.
    const again = await client.post(`/developers/keys/${oldKey}/roll`, { grace_s: '604800', code: code() });
    expect(again.status).toBe(409);
    const list = await client.get('/developers');
    expect(list.text).toMatch(new RegExp(`data-key="${oldKey}"[\\s\\S]*?data-state="expiring"`));
    expect(list.text).not.toContain(newSecret);
  });

  it('revokes a key at once, audited', async () => {
    const created = await client.post('/developers/keys', { code: code() });
    const apiKey = /id="api-key">(pk_[0-9a-f]+)</.exec(created.text)![1]!;
    const res = await client.post(`/developers/keys/${apiKey}/revoke`, { code: code() });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/developers?done=revoked');
    const row = await portal.db.apiKey.findUniqueOrThrow({ where: { apiKey } });
    expect(row.revokedAt?.getTime()).toBe(portal.clock.now);
    expect(await audits('portal.api_key.revoke')).toEqual([
      expect.objectContaining({ targetId: apiKey, merchantUserId: developer.id }),
    ]);
  });

  it("answers 404 for another merchant's key or an unknown one, with nothing changed", async () => {
    await createApiKey(portal.db, portal.box, otherMerchantId);
    const [theirs] = await keysOf(otherMerchantId);
    for (const path of [`/developers/keys/${theirs!.apiKey}/roll`, `/developers/keys/${theirs!.apiKey}/revoke`]) {
      expect((await client.post(path, { grace_s: '86400', code: code() })).status).toBe(404);
    }
    expect((await client.post('/developers/keys/pk_unknown/revoke', { code: code() })).status).toBe(404);
    expect(await keysOf(otherMerchantId)).toEqual([theirs]);
    expect(await portal.db.auditEntry.count({ where: { targetId: theirs!.apiKey } })).toBe(0);
  });

  it("refuses a bad webhook URL with the API's message, saves a good one, audited", async () => {
    const before = await portal.db.auditEntry.count({ where: { action: 'portal.merchant.webhook_url' } });
    for (const bad of ['ftp://shop.example/hooks', 'not a url', 'https://user:pw@shop.example/hooks']) {
      const res = await client.post('/developers/webhook-url', { webhook_url: bad, code: code() });
      expect(res.status).toBe(400);
      expect(res.text).toContain('id="developers-error"');
    }
    const fr = portal.client({ 'accept-language': 'fr' });
    await portal.signIn(fr, developer);
    const french = await fr.post('/developers/webhook-url', { webhook_url: 'ftp://x.example', code: code() });
    expect(french.text).toContain('doit être une adresse http:// ou https://');
    expect((await portal.db.merchant.findUniqueOrThrow({ where: { id: merchantId } })).webhookUrl).toBeNull();

    const refused = await client.post('/developers/webhook-url', {
      webhook_url: 'https://shop.example/hooks',
      code: wrongCode(),
    });
    expect(refused.status).toBe(401);
    expect((await portal.db.merchant.findUniqueOrThrow({ where: { id: merchantId } })).webhookUrl).toBeNull();

    const saved = await client.post('/developers/webhook-url', {
      webhook_url: 'https://shop.example/hooks',
      code: code(),
    });
    expect(saved.location).toBe('/developers?done=url_saved');
    expect((await portal.db.merchant.findUniqueOrThrow({ where: { id: merchantId } })).webhookUrl).toBe(
      'https://shop.example/hooks',
    );
    expect(await portal.db.auditEntry.count({ where: { action: 'portal.merchant.webhook_url' } })).toBe(before + 1);
  });

  it('sends a test event: the newest payment event again, new event_id, to the default URL, with its outbox row', async () => {
    const { transactionId, eventId } = await failedCashin();
    // The original went to its notify_url and was delivered: nothing holds the copy back.
    await portal.db.webhookEvent.update({ where: { id: eventId }, data: { status: 'DELIVERED' } });
    await completeOutbox(portal.db, eventId);
    const res = await client.post('/developers/webhook-test', { code: code() });
    expect(res.status).toBe(303);
    const testId = /\/developers\/webhooks\/([0-9a-f-]{36})\?queued=1$/.exec(res.location ?? '')![1]!;
    const original = await portal.db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } });
    const copy = await portal.db.webhookEvent.findUniqueOrThrow({ where: { id: testId } });
    expect(copy).toMatchObject({
      merchantId,
      transactionId,
      eventType: 'transaction.status_changed',
      targetUrl: 'https://shop.example/hooks',
      status: 'PENDING',
    });
    const body = JSON.parse(copy.body!) as Record<string, unknown>;
    expect(body).toEqual({ ...(JSON.parse(original.body!) as Record<string, unknown>), event_id: testId });
    expect(Object.keys(body)).toEqual(Object.keys(JSON.parse(original.body!) as object));
    expect(await portal.db.outbox.findUniqueOrThrow({ where: { id: testId } })).toMatchObject({ completedAt: null });
    expect(await audits('portal.webhook.test')).toEqual([expect.objectContaining({ targetId: testId })]);
    const page = await client.get(res.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain(testId);
  });

  it('lists events newest first, filtered, keyset-paged, with their attempts', async () => {
    const { eventId } = await failedCashin();
    await abandon(eventId);
    const list = await client.get('/developers/webhooks?status=ABANDONED');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`data-event="${eventId}"`);
    expect(list.text).not.toMatch(/data-status="DELIVERED"/);
    const all = await client.get('/developers/webhooks');
    const order = [...all.text.matchAll(/data-event="([0-9a-f-]{36})"/g)].map((m) => m[1]);
    const rows = await portal.db.webhookEvent.findMany({
      where: { merchantId },
      orderBy: [{ createdAt: 'desc' }, { seq: 'desc' }],
    });
    expect(order).toEqual(rows.map((r) => r.id));
    expect((await client.get('/developers/webhooks?status=NOPE')).status).toBe(400);
    expect((await client.get('/developers/webhooks?from=yesterday')).status).toBe(400);
    const future = await client.get('/developers/webhooks?from=2999-01-01');
    expect(future.text).toContain('id="no-events"');

    const detail = await client.get(`/developers/webhooks/${eventId}`);
    expect(detail.status).toBe(200);
    expect([...detail.text.matchAll(/data-attempt="(\d+)"/g)].map((m) => m[1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(detail.text).toContain('id="resend-form"');
  });

  it('pages by key: every event once, newest first, the next page through ?before=', async () => {
    await failedCashin();
    await failedCashin();
    const all = await portal.db.webhookEvent.findMany({
      where: { merchantId },
      orderBy: [{ createdAt: 'desc' }, { seq: 'desc' }],
    });
    const seen: string[] = [];
    let before: string | undefined;
    do {
      const page = await listMerchantWebhookEvents(portal.db, { merchantId, limit: 2, ...(before ? { before } : {}) });
      seen.push(...page.events.map((e) => e.id));
      before = page.nextCursor ?? undefined;
    } while (before);
    expect(seen).toEqual(all.map((e) => e.id));

    const first = await listMerchantWebhookEvents(portal.db, { merchantId, limit: 2 });
    const next = await client.get(`/developers/webhooks?before=${first.nextCursor}`);
    expect([...next.text.matchAll(/data-event="([0-9a-f-]{36})"/g)].map((m) => m[1])).toEqual(
      all.slice(2).map((e) => e.id),
    );
  });

  it('re-sends an abandoned event on the right code only, with its outbox row re-opened and an audit row', async () => {
    const { eventId } = await failedCashin();
    await abandon(eventId);
    const refused = await client.post(`/developers/webhooks/${eventId}/resend`, { code: wrongCode() });
    expect(refused.status).toBe(401);
    expect((await portal.db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } })).status).toBe('ABANDONED');

    const res = await client.post(`/developers/webhooks/${eventId}/resend`, { code: code() });
    expect(res.status).toBe(303);
    expect(await portal.db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } })).toMatchObject({
      status: 'PENDING',
      attemptCount: 7,
    });
    expect(await portal.db.outbox.findUniqueOrThrow({ where: { id: eventId } })).toMatchObject({
      completedAt: null,
      run: 1,
    });
    expect(await audits('portal.webhook.resend')).toEqual(
      expect.arrayContaining([expect.objectContaining({ targetId: eventId, merchantUserId: developer.id })]),
    );
    expect((await client.post(`/developers/webhooks/${eventId}/resend`, { code: code() })).status).toBe(409);
  });

  it('re-sends every abandoned event of a window, and only this merchant’s', async () => {
    const mine = [await failedCashin(), await failedCashin()];
    const theirs = await failedCashin(otherMerchantId);
    for (const e of [...mine, theirs]) await abandon(e.eventId);
    const abandonedBefore = await portal.db.webhookEvent.count({ where: { merchantId, status: 'ABANDONED' } });
    expect(abandonedBefore).toBeGreaterThanOrEqual(2);
    const from = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
    const to = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
    expect((await client.post('/developers/webhooks/resend-failed', { from: to, to: from, code: code() })).status).toBe(
      400,
    );
    const res = await client.post('/developers/webhooks/resend-failed', { from, to, code: code() });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`resent=${abandonedBefore}&skipped=0$`));
    for (const e of mine)
      expect((await portal.db.webhookEvent.findUniqueOrThrow({ where: { id: e.eventId } })).status).toBe('PENDING');
    expect((await portal.db.webhookEvent.findUniqueOrThrow({ where: { id: theirs.eventId } })).status).toBe(
      'ABANDONED',
    );
  });

  it("answers 404 for another merchant's event or an unknown one, with nothing changed", async () => {
    const theirs = await failedCashin(otherMerchantId);
    await abandon(theirs.eventId);
    expect((await client.get(`/developers/webhooks/${theirs.eventId}`)).status).toBe(404);
    expect((await client.get('/developers/webhooks/not-a-uuid')).status).toBe(404);
    expect((await client.post(`/developers/webhooks/${theirs.eventId}/resend`, { code: code() })).status).toBe(404);
    expect((await portal.db.webhookEvent.findUniqueOrThrow({ where: { id: theirs.eventId } })).status).toBe(
      'ABANDONED',
    );
    expect(await portal.db.auditEntry.count({ where: { targetId: theirs.eventId } })).toBe(0);
  });
});
