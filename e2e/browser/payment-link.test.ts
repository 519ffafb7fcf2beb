import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningOperatorMocks } from '@mm/operator-mocks';
import { withOperatorMocks } from '../support/operator-mocks.js';
import { freePort, waitFor } from '@mm/testing';
import { startSystem, type System } from '../support/system.js';
import {
  fitsTheScreen,
  launchBrowser,
  phoneContext,
  screenshot,
  startReturnServer,
  VIEWPORT,
  waitForStatus,
  type ReturnServer,
} from './support.js';

/**
 * A payment link paid in a real browser on a 360 px phone (docs/payment-links.md): by push (the MTN CI
 * contract mock), by redirect (Orange Money WebPay's), by Wave picked by name; and a single-use link
 * that a second customer cannot pay while the first one's payment is in progress. The gateway listens
 * where PUBLIC_BASE_URL says, so the link's url is the page the browser opens.
 */
let sys: System;
let mocks: RunningOperatorMocks;
let browser: Browser;
let fr: BrowserContext;
let en: BrowserContext;
let shop: ReturnServer;
let seq = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  shop = await startReturnServer();
  const port = await freePort();
  const publicBaseUrl = `http://127.0.0.1:${port}`;
  sys = await startSystem({
    gatewayEnv: { GATEWAY_PORT: String(port), PUBLIC_BASE_URL: publicBaseUrl },
    bridgeEnv: { PUBLIC_BASE_URL: publicBaseUrl },
  });
  // Every account of CI, SN and CM pointed at its mock, as an admin sets them: in CI, MTN (push), Orange
  // (WebPay, redirect) and Wave (no prefix: named by the customer).
  mocks = await withOperatorMocks(sys, { outcomeDelayMs: 50, lateConfirmDelayMs: 60_000, waveAutoPay: false });
  fr = await phoneContext(browser);
  en = await browser.newContext({
    viewport: VIEWPORT,
    locale: 'en-GB',
    extraHTTPHeaders: { 'Accept-Language': 'en-GB,en;q=0.9' },
  });
  // The gateway's routing hears of the accounts just enabled through PostgreSQL's notification: until
  // then a number of MTN's prefix would go to the simulator.
  await waitFor(
    async () => {
      const r = await sys.api('POST', '/api/v1/payments/cashin', {
        merchant_order_id: `warm-${Date.now()}`,
        amount: 5000,
        customer_msisdn: '+2250512345601',
      });
      return r.status === 202 && (r.body.data as { operator: string }).operator === 'MTN';
    },
    { what: 'routing to the MTN mock', timeoutMs: 15_000, intervalMs: 200 },
  );
}, 90_000);
afterAll(async () => {
  await fr?.close();
  await en?.close();
  await browser?.close();
  await mocks?.close();
  await shop?.close();
  await sys?.stop();
});

async function createLink(extra: Record<string, unknown> = {}) {
  const res = await sys.api('POST', '/api/v1/payment-links', {
    description: `Robe wax taille M (${++seq})`,
    country_code: 'CI',
    amount: 15000,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.data as { payment_link_id: string; url: string };
}

async function pay(context: BrowserContext, url: string, number: string, button: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('#msisdn').fill(number);
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL((u) => u.pathname.startsWith('/pay/'), { timeout: 15_000 });
  return page;
}
const transactionOf = (page: Page) => new URL(page.url()).pathname.split('/')[2]!;
const row = (id: string) => sys.db.transaction.findUniqueOrThrow({ where: { id } });

describe('a payment link in a real browser', () => {
  it('by push (MTN): the French page, the number typed, the phone pushed, SUCCESS, then back to the shop', async () => {
    const link = await createLink({ redirect_url: `${shop.url}/merci` });
    const page = await fr.newPage();
    await page.goto(link.url);
    expect(await page.textContent('h1')).toBe('Boutique Test');
    expect(await page.inputValue('#msisdn')).toBe('+225 ');
    expect(await page.textContent('#amount')).toBe('15\u00a0000\u00a0F\u00a0CFA');
    expect(await fitsTheScreen(page)).toBe(true);
    await screenshot(page, 'payment-link-fr');
    await page.locator('#msisdn').fill('+225 05 12 34 56 01');
    await page.getByRole('button', { name: 'Payer' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/pay/'), { timeout: 15_000 });
    const id = transactionOf(page);
    expect(await row(id)).toMatchObject({ paymentLinkId: link.payment_link_id, operator: 'MTN' });
    await waitForStatus(page, 'SUCCESS', 20_000);
    await page.waitForURL((u) => u.href.startsWith(`${shop.url}/merci`), { timeout: 15_000 });
    expect(shop.requests).toContainEqual(`/merci?transaction_id=${id}&status=SUCCESS`);
    await page.close();
  }, 60_000);

  it("by redirect (Orange Money): the English page, then Orange's page, paid there, SUCCESS", async () => {
    const link = await createLink({ amount: undefined, min_amount: 1000, max_amount: 50_000, reusable: true });
    const page = await en.newPage();
    await page.goto(link.url);
    await page.locator('#amount').fill('12 500');
    await page.locator('#msisdn').fill('0712345601');
    expect(await fitsTheScreen(page)).toBe(true);
    await screenshot(page, 'payment-link-en');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/pay/'), { timeout: 15_000 });
    const id = transactionOf(page);
    expect(await row(id)).toMatchObject({ amount: 12_500n, operator: 'ORANGE', paymentLinkId: link.payment_link_id });
    const cta = page.getByRole('link', { name: 'Pay with Orange Money' });
    await cta.waitFor({ timeout: 15_000 });
    await cta.click();
    await page.getByLabel('Numero Orange Money').fill('0712345601');
    await page.getByRole('button', { name: 'Payer' }).click();
    await page.waitForURL((u) => u.pathname === `/pay/${id}`, { timeout: 15_000 });
    await waitForStatus(page, 'SUCCESS', 20_000);
    expect(await page.textContent('#st-t')).toBe('Payment successful');
    await page.close();
  }, 60_000);

  it('Wave picked by name on the page: its launch page, paid there, SUCCESS', async () => {
    const link = await createLink();
    const page = await fr.newPage();
    await page.goto(link.url);
    await page.getByLabel('Wave').check();
    await page.locator('#msisdn').fill('0101010101');
    await page.getByRole('button', { name: 'Payer' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/pay/'), { timeout: 15_000 });
    const id = transactionOf(page);
    expect((await row(id)).operator).toBe('WAVE');
    await page.getByRole('link', { name: 'Payer avec Wave' }).click({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((u) => u.pathname === `/pay/${id}`, { timeout: 15_000 });
    await waitForStatus(page, 'SUCCESS', 20_000);
    await page.close();
  }, 60_000);

  it('a single-use link: a second customer, whose page was open, is refused while the first one pays', async () => {
    const link = await createLink();
    const second = await en.newPage();
    await second.goto(link.url);
    // The first customer pays by Orange's redirect: the payment stays in progress until paid on Orange's page.
    const first = await pay(fr, link.url, '0712345602', 'Payer');
    const firstId = transactionOf(first);
    await second.locator('#msisdn').fill('0512345601');
    await second.getByRole('button', { name: 'Pay', exact: true }).click();
    await second.locator('#closed[data-reason="BUSY"]').waitFor({ timeout: 10_000 });
    expect(await second.textContent('h1')).toBe('This link is being paid');
    await screenshot(second, 'payment-link-busy-en');
    const later = await fr.newPage();
    await later.goto(link.url);
    expect(await later.textContent('h1')).toBe('Ce lien est en cours de paiement');
    expect(await fitsTheScreen(later)).toBe(true);
    await screenshot(later, 'payment-link-busy-fr');
    const rows = await sys.db.transaction.findMany({ where: { paymentLinkId: link.payment_link_id } });
    expect(rows.map((r) => r.id)).toEqual([firstId]);
    for (const p of [first, second, later]) await p.close();
  }, 60_000);
});
