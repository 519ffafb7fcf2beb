import { randomUUID } from 'node:crypto';
import { completeRefund, createCashout, holdLateSuccess, rejectCashout, transition } from '@mm/db/payments';
import { startBackofficeFixture, type BackofficeFixture } from '../test-support/backoffice-fixture.js';
import type { PageResponse, TestClient } from '@mm/testing';
import {
  abandon,
  failByOperator,
  failOnce,
  logInAs,
  newCashin,
  newMerchant,
  seedSubsidiaries,
} from '../test-support/transaction-data.js';

describe('/transactions: search and detail', () => {
  let bo: BackofficeFixture;
  let viewer: TestClient;
  let shopA: string;
  let shopB: string;
  beforeAll(async () => {
    bo = await startBackofficeFixture();
    await seedSubsidiaries(bo.db);
    shopA = await newMerchant(bo.db, 'Shop A');
    shopB = await newMerchant(bo.db, 'Shop B', null);
    viewer = (await logInAs(bo, 'viewer')).client;
  });
  afterAll(async () => {
    await bo.stop();
  });

  const idsOn = (page: PageResponse) => [...page.text.matchAll(/<tr data-transaction-id="([^"]+)"/g)].map((m) => m[1]);
  const search = async (query: string) => {
    const page = await viewer.get(`/transactions?${query}`);
    expect(page.status).toBe(200);
    return idsOn(page);
  };

  it('finds the right rows by id, order id, number, status, type, merchant, country and dates', async () => {
    const run = randomUUID().slice(0, 8);
    const a1 = await newCashin(bo.db, { merchantId: shopA, orderId: `${run}-1`, msisdn: '+2250707000101' });
    const a2 = await newCashin(bo.db, { merchantId: shopA, orderId: `${run}-2`, msisdn: '+2250707000102' });
    const b1 = await newCashin(bo.db, {
      merchantId: shopB,
      orderId: `${run}-1`,
      msisdn: '+237690000101',
      countryCode: 'CM',
    });
    await failByOperator(bo.db, a2.id);
    await bo.db.transaction.update({ where: { id: b1.id }, data: { createdAt: new Date('2024-01-15T10:00:00.000Z') } });

    expect(await search(`id=${a1.id}`)).toEqual([a1.id]);
    expect(await search(`id=${a1.id.toUpperCase()}`)).toEqual([a1.id]);
    expect(new Set(await search(`order_id=${run}-1`))).toEqual(new Set([a1.id, b1.id]));
    expect(await search(`number=${encodeURIComponent('+2250707000102')}`)).toEqual([a2.id]);
    // Spaces as people write numbers are dropped; the number is normalised before the search.
    expect(await search(`number=${encodeURIComponent('+225 07 07 00 01 02')}`)).toEqual([a2.id]);
    expect(await search(`status=FAILED&merchant=${shopA}`)).toEqual([a2.id]);
    expect(await search(`status=CREATED&order_id=${run}-2`)).toEqual([]);
    expect(new Set(await search(`type=CASHIN&merchant=${shopA}`))).toEqual(new Set([a1.id, a2.id]));
    expect(await search(`type=CASHOUT&merchant=${shopA}`)).toEqual([]);
    expect(await search(`merchant=${shopB}`)).toEqual([b1.id]);
    expect(await search(`country=CM&order_id=${run}-1`)).toEqual([b1.id]);
    // Whole UTC days, "to" included.
    expect(await search('from=2024-01-15&to=2024-01-15')).toEqual([b1.id]);
    expect(await search('from=2024-01-16&to=2024-12-31')).toEqual([]);
    expect(await search('to=2024-01-14')).toEqual([]);

    const page = await viewer.get(`/transactions?merchant=${shopB}`);
    expect(page.text).toContain('data-nav="transactions" aria-current="page"');
    // Staff see the full number, the amount with its currency, the country and the merchant's name.
    expect(page.text).toMatch(
      new RegExp(
        `<tr data-transaction-id="${b1.id}">[\\s\\S]*?Shop B[\\s\\S]*?1\u202f000 XAF[\\s\\S]*?\\+237690000101</td><td>CM</td>`,
      ),
    );
    expect(page.text).toContain(`<option value="${shopB}" selected>Shop B</option>`);
  });

  it('refuses invalid filters with a message on the page and runs no query', async () => {
    const cases: [string, string][] = [
      ['id=not-a-uuid', 'The transaction id must be a UUID'],
      ['from=2024-02-30', '&quot;From&quot; is not a date'],
      ['to=yesterday', '&quot;To&quot; is not a date'],
      ['from=2024-03-02&to=2024-03-01', '&quot;From&quot; is after &quot;To&quot;'],
      [`number=${encodeURIComponent('0707000101')}`, 'Enter the number in international form'],
      ['merchant=shop-a', 'Unknown merchant.'],
      ['status=DONE', 'Unknown status'],
      ['after=garbage', 'The page link is damaged'],
      ['id=a&id=b', 'was given more than once'],
    ];
    for (const [query, message] of cases) {
      const page = await viewer.get(`/transactions?${query}`);
      expect(page.status).toBe(400);
      expect(page.text).toContain('id="search-errors"');
      expect(page.text).toContain(message);
      expect(page.text).not.toContain('id="transactions-table"');
      expect(page.text).not.toContain('id="no-results"');
    }
  });

  it('pages newest first with an "Older →" link that keeps the filters', async () => {
    const shop = await newMerchant(bo.db, 'Busy Shop');
    const made: string[] = [];
    for (let i = 0; i < 51; i++) made.push((await newCashin(bo.db, { merchantId: shop })).id);
    const first = await viewer.get(`/transactions?merchant=${shop}&type=CASHIN`);
    const firstIds = idsOn(first);
    expect(firstIds).toHaveLength(50);
    const link = /<a id="older-page" href="([^"]+)">Older →<\/a>/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    expect(link).toContain(`merchant=${shop}`);
    expect(link).toContain('type=CASHIN');
    const second = await viewer.get(link!);
    const secondIds = idsOn(second);
    expect(secondIds).toHaveLength(1);
    expect(second.text).not.toContain('id="older-page"');
    expect(second.text).toContain('id="newest-page"');
    // Together, every row once, newest first (rows made in one millisecond are ordered by id).
    const all = [...firstIds, ...secondIds];
    expect(new Set(all)).toEqual(new Set(made));
    const rows = await bo.db.transaction.findMany({
      where: { merchantId: shop },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true },
    });
    expect(all).toEqual(rows.map((r) => r.id));
  });

  it('shows every field and the timeline: state changes with what the operator said, webhook attempts with their status code', async () => {
    const t = await newCashin(bo.db, { merchantId: shopA, msisdn: '+2250707000199', amount: 2500 });
    const eventId = await failByOperator(bo.db, t.id);
    await failOnce(bo.db, eventId, new Date(Date.now() + 60_000));
    // A second attempt that got no answer at all: no status code, the error says why.
    await bo.db.webhookAttempt.create({
      data: {
        eventId,
        attemptNo: 2,
        targetUrl: 'https://merchant.example/hooks',
        statusCode: null,
        latencyMs: 10_000,
        success: false,
        error: 'timeout after 10000 ms',
      },
    });

    const page = await viewer.get(`/transactions/${t.id}`);
    expect(page.status).toBe(200);
    for (const [field, value] of [
      ['msisdn', '+2250707000199'],
      ['merchant_order_id', t.merchantOrderId],
      ['provider_reference', t.providerReference],
      ['failure_code', 'INSUFFICIENT_BALANCE'],
    ]) {
      expect(page.text).toMatch(new RegExp(`<dd data-field="${field}">[^]*?${value!.replace('+', '\\+')}[^]*?</dd>`));
    }
    expect(page.text).toContain('2\u202f500 XOF');
    const timeline = /<table id="timeline">([\s\S]*?)<\/table>/.exec(page.text)![1]!;
    expect([...timeline.matchAll(/data-kind="(\w+)"(?: data-to="(\w+)")?/g)].map((m) => m[2] ?? m[1])).toEqual([
      'CREATED',
      'INITIATED',
      'FAILED',
      'webhook',
      'webhook',
    ]);
    const failed = /<tr data-kind="state" data-to="FAILED">[\s\S]*?<\/tr>/.exec(timeline)![0];
    expect(failed).toContain('operator-result:callback');
    expect(failed).toMatch(/data-detail="provider_state">.*canceled/);
    expect(failed).toMatch(/data-detail="provider_txn_status">.*54321/);
    expect(failed).toMatch(/data-detail="failure_reason">.*60019/);
    const attempt = new RegExp(
      `<tr data-kind="webhook" data-event-id="${eventId}" data-attempt="1">[\\s\\S]*?</tr>`,
    ).exec(timeline)![0];
    expect(attempt).toContain('HTTP <span data-status-code>500</span>, 41 ms');
    const unanswered = new RegExp(
      `<tr data-kind="webhook" data-event-id="${eventId}" data-attempt="2">[\\s\\S]*?</tr>`,
    ).exec(timeline)![0];
    expect(unanswered).toContain('no response, 10000 ms');
    expect(unanswered).toContain('Error: timeout after 10000 ms');
    // The event list: still being retried, so no Re-send button.
    expect(page.text).toMatch(new RegExp(`<tr data-event-id="${eventId}">[\\s\\S]*?data-status="PENDING"`));
    expect(page.text).not.toContain('data-resend=');
  });

  it('shows a late success for a FAILED cash-in and its automatic return to the customer (decisions 13)', async () => {
    const t = await newCashin(bo.db, { merchantId: shopA, msisdn: '+2250707000113', amount: 3000 });
    await failByOperator(bo.db, t.id);
    const held = (await bo.db.$transaction((tx) =>
      holdLateSuccess(tx, t.id, { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'MPLATE42' }),
    ))!;
    const returning = await viewer.get(`/transactions/${t.id}`);
    expect(returning.text).toMatch(/<dd data-field="status">[^]*?data-status="FAILED"/);
    expect(returning.text).toMatch(/<dd data-field="late_success">[^]*?data-late-success="RETURNING"[^]*?3 000 XOF/);
    const timeline = /<table id="timeline">([\s\S]*?)<\/table>/.exec(returning.text)![1]!;
    expect([...timeline.matchAll(/data-kind="([\w-]+)"(?: data-to="(\w+)")?/g)].map((m) => m[2] ?? m[1])).toEqual([
      'CREATED',
      'INITIATED',
      'FAILED',
      'late-success',
      'refund',
    ]);
    expect(timeline).toMatch(
      new RegExp(
        `<tr data-kind="late-success" data-refund-id="${held.refund.id}">[\\s\\S]*?MPLATE42[\\s\\S]*?held in suspense`,
      ),
    );
    expect(timeline).toMatch(
      new RegExp(
        `<tr data-kind="refund" data-refund-id="${held.refund.id}" data-origin="LATE_SUCCESS">[\\s\\S]*?Return to the customer[\\s\\S]*?data-status="PENDING"`,
      ),
    );

    await bo.db.$transaction((tx) =>
      completeRefund(tx, held.refund.id, { status: 'FAILED', failureReason: 'REFUND_REJECTED' }),
    );
    const failed = await viewer.get(`/transactions/${t.id}`);
    expect(failed.text).toMatch(
      /<dd data-field="late_success">[^]*?data-late-success="RETURN_FAILED"[^]*?held in suspense/,
    );
    expect(failed.text).toContain('Failure reason: REFUND_REJECTED');
  });

  it('shows who decided a cash-out', async () => {
    const funded = await newCashin(bo.db, { merchantId: shopA, amount: 50_000 });
    for (const to of ['INITIATED', 'SUCCESS'] as const)
      await bo.db.$transaction((tx) => transition(tx, { transactionId: funded.id, to, cause: 'setup' }));
    const created = await createCashout(bo.db, {
      merchantId: shopA,
      merchantOrderId: `out-${randomUUID()}`,
      amount: 20_000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000002',
      reason: 'supplier',
      notifyUrl: null,
      requestFingerprint: 'fp',
      approval: 'required',
    });
    if (created.kind !== 'created') throw new Error('setup');
    await bo.db.$transaction((tx) =>
      rejectCashout(tx, {
        transactionId: created.transaction.id,
        decidedBy: 'approver@example.test',
        reason: 'not verified',
      }),
    );
    const page = await viewer.get(`/transactions/${created.transaction.id}`);
    expect(page.text).toMatch(/data-detail="decided_by">.*approver@example\.test/);
    expect(page.text).toContain('cashout-rejected');
  });

  it('offers Re-send on an abandoned event to approvers, not to viewers', async () => {
    const t = await newCashin(bo.db, { merchantId: shopA });
    const eventId = await failByOperator(bo.db, t.id);
    await abandon(bo.db, eventId);
    expect((await viewer.get(`/transactions/${t.id}`)).text).not.toContain(`data-resend="${eventId}"`);
    const { client: approver } = await logInAs(bo, 'approver');
    const page = await approver.get(`/transactions/${t.id}`);
    expect(page.text).toContain(`data-resend="${eventId}"`);
    expect(page.text).toContain(`name="back" value="/transactions/${t.id}"`);
  });

  it('answers 404 for an unknown or malformed id; sends anonymous visitors to the login page', async () => {
    expect((await viewer.get(`/transactions/${randomUUID()}`)).status).toBe(404);
    expect((await viewer.get('/transactions/not-a-uuid')).status).toBe(404);
    expect(await bo.client().get('/transactions')).toMatchObject({
      status: 303,
      location: '/login?next=%2Ftransactions',
    });
  });
});
