import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { TestClient } from '@mm/testing';
import {
  abandon,
  failByOperator,
  failOnce,
  fixtureQueue,
  logInAs,
  newCashin,
  newMerchant,
  seedSubsidiaries,
} from '../test-support/transaction-data.js';

describe('/webhooks: problem deliveries and re-sending them', () => {
  let bo: BackofficeFixture;
  let shop: string;
  let deliveries: ReturnType<typeof fixtureQueue>;
  let approver: { staff: { id: string; email: string }; client: TestClient };
  beforeAll(async () => {
    bo = await startBackofficeFixture();
    await seedSubsidiaries(bo.db);
    shop = await newMerchant(bo.db, 'Hook Shop');
    deliveries = fixtureQueue(bo, 'webhook-deliveries');
    approver = await logInAs(bo, 'approver');
  });
  afterAll(async () => {
    await deliveries.close();
    await bo.stop();
  });

  async function abandonedEvent(): Promise<{ transactionId: string; eventId: string }> {
    const t = await newCashin(bo.db, { merchantId: shop });
    const eventId = await failByOperator(bo.db, t.id);
    await abandon(bo.db, eventId);
    return { transactionId: t.id, eventId };
  }
  const eventOf = (id: string) => bo.db.webhookEvent.findUniqueOrThrow({ where: { id } });
  const resendAudit = (eventId: string) =>
    bo.db.auditEntry.findMany({ where: { action: 'webhook.resend', targetId: eventId } });

  /** PENDING again with its attempts kept, its outbox row re-opened, its job in Redis, one audit row by `staffId`. */
  async function expectResent(eventId: string, staffId: string): Promise<void> {
    expect(await eventOf(eventId)).toMatchObject({ status: 'PENDING', attemptCount: 7 });
    const row = await bo.db.outbox.findUniqueOrThrow({ where: { id: eventId } });
    expect(row).toMatchObject({ completedAt: null, run: 1 });
    const job = await deliveries.queue.getJob(`${eventId}_${row.run}`);
    expect(job?.data).toEqual({ event_id: eventId, outbox_id: eventId });
    expect(await job!.getState()).toBe('waiting');
    const audit = await resendAudit(eventId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      staffId,
      targetType: 'webhook_event',
      before: { status: 'ABANDONED', attempt_count: 7 },
      after: { status: 'PENDING' },
    });
  }

  it('lists abandoned deliveries with their attempts and last status, selectable; failing ones read-only with their next attempt', async () => {
    const abandoned = await abandonedEvent();
    const t = await newCashin(bo.db, { merchantId: shop });
    const failingId = await failByOperator(bo.db, t.id);
    const next = new Date(Date.now() + 5 * 60_000);
    await failOnce(bo.db, failingId, next);

    const list = await approver.client.get('/webhooks');
    expect(list.status).toBe(200);
    const row = new RegExp(`<tr data-event-id="${abandoned.eventId}">[\\s\\S]*?</tr>`).exec(list.text)?.[0];
    expect(row).toContain(`<input type="checkbox" name="event_id" value="${abandoned.eventId}" form="resend-selected"`);
    expect(row).toContain('Hook Shop');
    expect(row).toContain('transaction.status_changed');
    expect(row).toContain(`<a href="/transactions/${abandoned.transactionId}">`);
    expect(row).toContain('<td>7</td>');
    expect(row).toContain('<span data-status-code>500</span>');
    expect(row).toContain(`data-resend="${abandoned.eventId}"`);
    expect(list.text).toContain('id="resend-selected"');
    expect(list.text).not.toContain(`data-event-id="${failingId}"`);

    const failing = await approver.client.get('/webhooks?problem=failing');
    const failingRow = new RegExp(`<tr data-event-id="${failingId}">[\\s\\S]*?</tr>`).exec(failing.text)?.[0];
    expect(failingRow).toContain(`<time datetime="${next.toISOString()}">`);
    expect(failingRow).toContain('<td>1</td>');
    expect(failing.text).not.toContain('type="checkbox"');
    expect(failing.text).not.toContain('data-resend=');
    expect(failing.text).toContain('cannot be re-sent by hand');
    expect((await approver.client.get('/webhooks?problem=everything')).status).toBe(400);
  });

  it('re-sends one abandoned delivery: PENDING again, outbox row re-opened, job in the queue, one audit row', async () => {
    const { eventId } = await abandonedEvent();
    await approver.client.get('/webhooks');
    const res = await approver.client.post('/webhooks/resend', {
      event_id: eventId,
      back: '/webhooks?problem=abandoned',
    });
    expect(res).toMatchObject({ status: 303, location: '/webhooks?problem=abandoned&resent=1&skipped=0' });
    await expectResent(eventId, approver.staff.id);
    const after = await approver.client.get(res.location!);
    expect(after.text).toContain('Re-sent 1 delivery.');
    expect(after.text).not.toContain(`data-event-id="${eventId}"`);
  });

  it('re-sends several in one POST; one no longer abandoned is reported as skipped and left alone', async () => {
    const [first, second, third] = [await abandonedEvent(), await abandonedEvent(), await abandonedEvent()];
    await approver.client.get('/webhooks');
    expect((await approver.client.post('/webhooks/resend', { event_id: first.eventId })).status).toBe(303);

    const res = await approver.client.post('/webhooks/resend', {
      event_id: [first.eventId, second.eventId, third.eventId],
      back: '/webhooks?problem=abandoned',
    });
    expect(res).toMatchObject({ status: 303, location: '/webhooks?problem=abandoned&resent=2&skipped=1' });
    for (const e of [first, second, third]) await expectResent(e.eventId, approver.staff.id);
    const page = await approver.client.get(res.location!);
    expect(page.text).toContain('Re-sent 2 deliveries. Skipped 1: no longer abandoned');
  });

  it('re-sends from a transaction page and returns to it', async () => {
    const { transactionId, eventId } = await abandonedEvent();
    await approver.client.get(`/transactions/${transactionId}`);
    const res = await approver.client.post('/webhooks/resend', {
      event_id: eventId,
      back: `/transactions/${transactionId}`,
    });
    expect(res).toMatchObject({ status: 303, location: `/transactions/${transactionId}?resent=1&skipped=0` });
    await expectResent(eventId, approver.staff.id);
    const page = await approver.client.get(res.location!);
    expect(page.text).toContain('<p class="notice" id="resend-notice">Re-sent 1 delivery.</p>');
    expect(page.text).not.toContain(`data-resend="${eventId}"`);
  });

  it('a viewer sees the list without buttons and gets 403 on re-send: nothing changes', async () => {
    const { eventId } = await abandonedEvent();
    const { client } = await logInAs(bo, 'viewer');
    const list = await client.get('/webhooks');
    expect(list.text).toContain(`<tr data-event-id="${eventId}">`);
    expect(list.text).not.toContain('type="checkbox"');
    expect(list.text).not.toContain('id="resend-selected"');
    expect((await client.post('/webhooks/resend', { event_id: eventId })).status).toBe(403);
    expect(await eventOf(eventId)).toMatchObject({ status: 'ABANDONED' });
    expect((await bo.db.outbox.findUniqueOrThrow({ where: { id: eventId } })).completedAt).not.toBeNull();
    expect(await resendAudit(eventId)).toEqual([]);
    expect(await deliveries.queue.getJob(`${eventId}_1`)).toBeUndefined();
  });

  it('refuses an empty selection, a malformed id and a missing CSRF token; an unknown back URL returns to the list', async () => {
    const { eventId } = await abandonedEvent();
    const { client } = approver;
    await client.get('/webhooks');
    expect((await client.post('/webhooks/resend', {})).status).toBe(400);
    expect((await client.post('/webhooks/resend', { event_id: ['not-an-id', eventId] })).status).toBe(400);
    expect((await client.post('/webhooks/resend', { event_id: eventId, _csrf: null })).status).toBe(403);
    expect(await eventOf(eventId)).toMatchObject({ status: 'ABANDONED' });
    const res = await client.post('/webhooks/resend', { event_id: eventId, back: 'https://evil.example/' });
    expect(res).toMatchObject({ status: 303, location: '/webhooks?problem=abandoned&resent=1&skipped=0' });
  });
});
