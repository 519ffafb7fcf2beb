import { randomUUID } from 'node:crypto';
import { findOverdueOutbox } from '@mm/db/outbox';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { TestClient } from '@mm/testing';
import { failByOperator, logInAs, newCashin, newMerchant, seedSubsidiaries } from '../test-support/transaction-data.js';

describe('/jobs/parked: jobs parked after failing every run, and running them again', () => {
  let bo: BackofficeFixture;
  let shop: string;
  let admin: { staff: { id: string; email: string }; client: TestClient };
  beforeAll(async () => {
    bo = await startBackofficeFixture();
    await seedSubsidiaries(bo.db);
    shop = await newMerchant(bo.db, 'Parking Shop');
    admin = await logInAs(bo, 'admin');
  });
  afterAll(async () => {
    await bo.stop();
  });

  /** An outbox row as the relay leaves it once parked (packages/db recordFailedRun at its limit). */
  async function parked(
    topic: string,
    payload: Record<string, unknown>,
    lastError = 'Error: operator answered nonsense',
    run = 4,
  ): Promise<string> {
    const row = await bo.db.outbox.create({
      data: {
        id: randomUUID(),
        topic,
        payload: payload as object,
        run,
        failedRuns: 5,
        lastError,
        lastFailedJob: `x_${run}@1`,
        parkedAt: new Date(Date.now() - 60_000),
      },
    });
    return row.id;
  }
  const parkedOperatorRequest = async () => {
    const t = await newCashin(bo.db, { merchantId: shop });
    return { transactionId: t.id, outboxId: await parked('operator-requests', { transaction_id: t.id }) };
  };
  const rowOf = (text: string, outboxId: string) =>
    new RegExp(`<tr data-outbox-id="${outboxId}">[\\s\\S]*?</tr>`).exec(text)?.[0];
  const outboxOf = (id: string) => bo.db.outbox.findUniqueOrThrow({ where: { id } });
  const runAgainAudit = (id: string) => bo.db.auditEntry.findMany({ where: { action: 'job.run_again', targetId: id } });

  it('lists parked jobs with their queue, ids linked to their transaction, failed runs, last error and when; nothing else', async () => {
    const op = await parkedOperatorRequest();
    const refunded = await newCashin(bo.db, { merchantId: shop });
    const refundId = randomUUID();
    await bo.db.refund.create({
      data: {
        id: refundId,
        transactionId: refunded.id,
        merchantId: shop,
        amount: 500n,
        currency: 'XOF',
        status: 'PENDING',
        providerReference: `rf-${refundId}`,
        requestFingerprint: 'fp',
      },
    });
    const refundJob = await parked('refund-requests', { refund_id: refundId });
    const hooked = await newCashin(bo.db, { merchantId: shop });
    const eventId = await failByOperator(bo.db, hooked.id);
    const eventJob = await parked('webhook-deliveries', { event_id: eventId });
    // Open but not parked (still being retried), and done: neither needs a person.
    const open = (
      await bo.db.outbox.create({
        data: { topic: 'operator-requests', payload: { transaction_id: op.transactionId }, failedRuns: 2 },
      })
    ).id;
    const done = (
      await bo.db.outbox.create({
        data: { topic: 'operator-requests', payload: {}, parkedAt: new Date(), completedAt: new Date() },
      })
    ).id;

    const page = await admin.client.get('/jobs/parked');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<a href="/jobs/parked" data-nav="parked-jobs" aria-current="page">Parked jobs</a>');
    const row = rowOf(page.text, op.outboxId);
    expect(row).toContain('operator-requests');
    expect(row).toContain(
      `<span data-id-key="transaction_id">transaction_id: <a href="/transactions/${op.transactionId}">${op.transactionId}</a></span>`,
    );
    expect(row).toContain('<td>5</td>');
    expect(row).toContain('<td data-last-error>Error: operator answered nonsense</td>');
    expect(row).toMatch(/<time datetime="[^"]+">/);
    expect(row).toContain(
      `<a href="/queues/queue/operator-requests?status=failed" data-dashboard="operator-requests">`,
    );
    expect(row).toContain(`<input type="checkbox" name="outbox_id" value="${op.outboxId}" form="run-again-selected"`);
    expect(row).toContain(`data-run-again="${op.outboxId}"`);
    expect(rowOf(page.text, refundJob)).toContain(`refund_id: <a href="/transactions/${refunded.id}">${refundId}</a>`);
    expect(rowOf(page.text, eventJob)).toContain(`event_id: <a href="/transactions/${hooked.id}">${eventId}</a>`);
    expect(page.text).not.toContain(`data-outbox-id="${open}"`);
    expect(page.text).not.toContain(`data-outbox-id="${done}"`);
    expect(page.text).toMatch(/<span data-parked-count="refund-requests">refund-requests: 1<\/span>/);
    expect(page.text).toContain('id="run-again-selected"');
  });

  it('escapes the last error: a job failing with markup in its message shows it as text', async () => {
    const outboxId = await parked(
      'operator-requests',
      { transaction_id: randomUUID() },
      '<script>alert("x")</script><img src=x onerror=1>',
    );
    const page = await admin.client.get('/jobs/parked');
    expect(rowOf(page.text, outboxId)).toContain(
      '<td data-last-error>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=1&gt;</td>',
    );
    expect(page.text).not.toContain('<script>');
    expect(page.text).not.toContain('<img src=x');
  });

  it('runs one again: unparked, due now with a fresh count and the next run, one audit row; the relay would publish it', async () => {
    const { outboxId } = await parkedOperatorRequest();
    await admin.client.get('/jobs/parked');
    const res = await admin.client.post('/jobs/parked/run-again', { outbox_id: outboxId });
    expect(res).toMatchObject({ status: 303, location: '/jobs/parked?ran=1&skipped=0' });

    const row = await outboxOf(outboxId);
    expect(row).toMatchObject({ parkedAt: null, failedRuns: 0, run: 5, completedAt: null });
    expect(Date.now() - row.availableAt.getTime()).toBeLessThan(10_000);
    // What the worker's relay scans once OUTBOX_GRACE_MS has passed: the row is back in it.
    expect(
      (await findOverdueOutbox(bo.db, ['operator-requests'], new Date(Date.now() + 60_000))).map((r) => r.id),
    ).toContain(outboxId);
    const audit = await runAgainAudit(outboxId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      staffId: admin.staff.id,
      actor: admin.staff.email,
      targetType: 'outbox',
      before: { topic: 'operator-requests', failed_runs: 5, run: 4, last_error: 'Error: operator answered nonsense' },
      after: { parked_at: null, failed_runs: 0, run: 5 },
    });

    const after = await admin.client.get(res.location!);
    expect(after.text).toContain(
      '<p class="notice" id="run-again-notice">Running 1 job again: the worker of its queue picks it up within seconds.</p>',
    );
    expect(after.text).not.toContain(`data-outbox-id="${outboxId}"`);

    // Again: no longer parked, so nothing changes and the page says so.
    const twice = await admin.client.post('/jobs/parked/run-again', { outbox_id: outboxId });
    expect(twice.location).toBe('/jobs/parked?ran=0&skipped=1');
    expect((await admin.client.get(twice.location!)).text).toContain('Skipped 1: no longer parked');
    expect(await outboxOf(outboxId)).toMatchObject({ run: 5, failedRuns: 0 });
    expect(await runAgainAudit(outboxId)).toHaveLength(1);
  });

  it('runs a selection again; one no longer parked (or unknown) is skipped and left alone', async () => {
    const [first, second] = [await parkedOperatorRequest(), await parkedOperatorRequest()];
    const done = (
      await bo.db.outbox.create({
        data: { topic: 'operator-requests', payload: {}, parkedAt: new Date(), completedAt: new Date(), run: 2 },
      })
    ).id;
    await admin.client.get('/jobs/parked');
    const res = await admin.client.post('/jobs/parked/run-again', {
      outbox_id: [first.outboxId, second.outboxId.toUpperCase(), done, randomUUID()],
    });
    expect(res).toMatchObject({ status: 303, location: '/jobs/parked?ran=2&skipped=2' });
    for (const { outboxId } of [first, second]) {
      expect(await outboxOf(outboxId)).toMatchObject({ parkedAt: null, run: 5 });
      expect(await runAgainAudit(outboxId)).toHaveLength(1);
    }
    expect(await outboxOf(done)).toMatchObject({ run: 2 });
    expect(await runAgainAudit(done)).toEqual([]);
    expect((await admin.client.get(res.location!)).text).toContain(
      'Running 2 jobs again: the worker of each queue picks them up within seconds. Skipped 2',
    );
  });

  it('a viewer and an approver see the list without buttons or dashboard links, and get 403 on run again: nothing changes', async () => {
    const { outboxId } = await parkedOperatorRequest();
    for (const role of ['viewer', 'approver'] as const) {
      const { client } = await logInAs(bo, role);
      const list = await client.get('/jobs/parked');
      expect(list.status).toBe(200);
      expect(list.text).toContain('data-nav="parked-jobs"');
      expect(list.text).toContain(`<tr data-outbox-id="${outboxId}">`);
      expect(list.text).not.toContain('type="checkbox"');
      expect(list.text).not.toContain('data-run-again=');
      expect(list.text).not.toContain('id="run-again-selected"');
      expect(list.text).not.toContain('data-dashboard=');
      expect((await client.post('/jobs/parked/run-again', { outbox_id: outboxId })).status).toBe(403);
    }
    expect(await outboxOf(outboxId)).toMatchObject({ run: 4, failedRuns: 5 });
    expect((await outboxOf(outboxId)).parkedAt).not.toBeNull();
    expect(await runAgainAudit(outboxId)).toEqual([]);
  });

  it('refuses a POST without the CSRF token, an empty selection and a malformed id, changing nothing', async () => {
    const { outboxId } = await parkedOperatorRequest();
    const { client } = admin;
    await client.get('/jobs/parked');
    expect((await client.post('/jobs/parked/run-again', { outbox_id: outboxId, _csrf: null })).status).toBe(403);
    expect((await client.post('/jobs/parked/run-again', { outbox_id: outboxId, _csrf: 'not-the-token' })).status).toBe(
      403,
    );
    expect((await client.post('/jobs/parked/run-again', {})).status).toBe(400);
    expect((await client.post('/jobs/parked/run-again', { outbox_id: ['not-an-id', outboxId] })).status).toBe(400);
    expect((await outboxOf(outboxId)).parkedAt).not.toBeNull();
    expect(await runAgainAudit(outboxId)).toEqual([]);
  });

  it('says so when nothing is parked, and an anonymous visitor is sent to the login page', async () => {
    await bo.db.outbox.updateMany({
      where: { parkedAt: { not: null }, completedAt: null },
      data: { completedAt: new Date() },
    });
    const page = await admin.client.get('/jobs/parked');
    expect(page.text).toContain('<p class="muted" id="no-parked-jobs">No parked job.</p>');
    expect(page.text).not.toContain('<table id="parked-jobs">');
    expect(await bo.client().get('/jobs/parked')).toMatchObject({
      status: 303,
      location: '/login?next=%2Fjobs%2Fparked',
    });
  });
});
