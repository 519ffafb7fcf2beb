import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from '../support/system.js';
import { startSystemBackoffice, STAFF_PASSWORD } from '../support/backoffice.js';
import { newOrderId } from '../support/contract.js';
import { launchBrowser, screenshot } from './support.js';

/**
 * The staff's side in a real browser (issue 6): logging in, finding a transaction, re-sending a webhook
 * the merchant never took, and approving a large cash-out that then reaches the beneficiary.
 */
let sys: System;
let backoffice: Awaited<ReturnType<typeof startSystemBackoffice>>;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  sys = await startSystem({ gatewayEnv: { DISBURSEMENT_ENABLED: 'true' } });
  backoffice = await startSystemBackoffice(sys);
}, 60_000);
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await backoffice?.stop();
  await sys?.stop();
});

async function logIn(role: 'admin' | 'approver' | 'viewer'): Promise<Page> {
  const email = await backoffice.staff(role);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${backoffice.url}/`);
  await page.waitForURL(/\/login/);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', STAFF_PASSWORD);
  await page.click('button:has-text("Log in")');
  await page.waitForURL(`${backoffice.url}/`);
  return page;
}

async function cashin(): Promise<{ id: string; orderId: string }> {
  const orderId = newOrderId('bo');
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: orderId,
    amount: 5_000_000,
    customer_msisdn: CI_NUMBER('01'),
  });
  expect(res.status).toBe(202);
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
    what: 'captured cash-in',
  });
  return { id, orderId };
}

describe('back-office in a browser', () => {
  it('logs in (and refuses a wrong password with a message)', async () => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const email = await backoffice.staff('viewer');
    await page.goto(`${backoffice.url}/login`);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', 'wrong-password-1');
    await page.click('button:has-text("Log in")');
    await expect(page.locator('body').innerText()).resolves.toContain('Incorrect email or password');
    expect(page.url()).toContain('/login');

    const admin = await logIn('admin');
    await expect(admin.locator('#staff-role').innerText()).resolves.toBe('admin');
    // An admin's menu reaches every area.
    expect(
      await admin.locator('[data-nav]').evaluateAll((links) => links.map((l) => l.getAttribute('data-nav'))),
    ).toEqual(
      expect.arrayContaining(['transactions', 'webhooks', 'cashouts', 'merchants', 'audit', 'queues', 'staff']),
    );
    await screenshot(admin, 'backoffice-home');
  });

  it('finds a transaction by its order id and shows its timeline', async () => {
    const { id, orderId } = await cashin();
    await waitFor(
      async () =>
        (await sys.db.webhookEvent.findFirst({ where: { transactionId: id, status: 'DELIVERED' } })) ?? undefined,
      { what: 'webhook delivered' },
    );
    const page = await logIn('viewer');
    await page.click('[data-nav="transactions"]');
    await page.fill('input[name="order_id"]', orderId);
    await page.click('button:has-text("Search")');
    await page.locator('tr', { hasText: orderId }).locator(`a[href="/transactions/${id}"]`).first().click();
    await page.waitForURL(`${backoffice.url}/transactions/${id}`);
    // The timeline itself: each state change in order, the operator's word on the last one, the delivery's HTTP 200.
    const states = await page
      .locator('#timeline tr[data-kind="state"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-to')));
    expect(states).toEqual(['CREATED', 'INITIATED', 'PENDING', 'SUCCESS']);
    await expect(
      page.locator('#timeline tr[data-to="SUCCESS"] [data-detail="provider_state"]').innerText(),
    ).resolves.toContain('OK');
    await expect(
      page.locator('#timeline tr[data-kind="webhook"] [data-status-code]').first().innerText(),
    ).resolves.toBe('200');
    await screenshot(page, 'backoffice-transaction');
  });

  it('re-sends a webhook the merchant never took, and it is delivered', async () => {
    sys.receiver.status(500);
    let id: string;
    try {
      ({ id } = await cashin());
      await waitFor(
        async () =>
          (await sys.db.webhookEvent.findFirst({ where: { transactionId: id, status: 'ABANDONED' } })) ?? undefined,
        { what: 'webhook abandoned' },
      );
    } finally {
      sys.receiver.status(200);
    }
    const before = sys.receiver.received.filter((w) => w.body.transaction_id === id).length;
    const page = await logIn('approver');
    await page.goto(`${backoffice.url}/webhooks?problem=abandoned`);
    const row = page.locator('tr', { hasText: id });
    await row.locator('button:has-text("Re-send")').click();
    await waitFor(
      async () =>
        (await sys.db.webhookEvent.findFirst({ where: { transactionId: id, status: 'DELIVERED' } })) ?? undefined,
      { what: 'webhook delivered after re-send' },
    );
    expect(sys.receiver.received.filter((w) => w.body.transaction_id === id).length).toBeGreaterThan(before);
    await screenshot(page, 'backoffice-webhooks');
  });

  it('an approver approves a large cash-out and the beneficiary is paid', async () => {
    await cashin();
    const res = await sys.api('POST', '/api/v1/payments/cashout', {
      merchant_order_id: newOrderId('big'),
      amount: 1_500_000,
      beneficiary_msisdn: '+2250707123401',
      reason: 'fournisseur',
    });
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe('AWAITING_APPROVAL');
    const id = res.body.data.transaction_id as string;

    const page = await logIn('approver');
    await page.click('[data-nav="cashouts"]');
    const row = page.locator(`tr[data-cashout-id="${id}"]`);
    // Grouped by thousands with narrow no-break spaces.
    expect((await row.innerText()).replace(/\s/g, ' ')).toContain('1 500 000 XOF');
    await screenshot(page, 'backoffice-approvals');
    await row.locator('button[data-action="approve"]').click();
    await page.waitForSelector('#cashouts-notice');
    await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
      what: 'cash-out paid',
    });
    await waitFor(
      () => sys.receiver.received.some((w) => w.body.transaction_id === id && w.body.status === 'SUCCESS'),
      { what: 'SUCCESS webhook' },
    );
    expect(await page.locator(`tr[data-cashout-id="${id}"]`).count()).toBe(0);
  });
});
