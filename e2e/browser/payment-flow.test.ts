import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CI_NUMBER, startSystem, type System } from '../support/system.js';
import {
  launchBrowser,
  phoneContext,
  screenshot,
  startReturnServer,
  waitForStatus,
  type ReturnServer,
} from './support.js';

/**
 * The customer's side in a real browser: the hosted payment page in one tab, the operator's virtual phone in
 * another. Numbers without a scripted outcome (ending 55, 56) wait for a person on the phone.
 */
let sys: System;
let browser: Browser;
let context: BrowserContext;
let shop: ReturnServer;
let seq = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  sys = await startSystem();
  shop = await startReturnServer();
  context = await phoneContext(browser);
}, 60_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await shop?.close();
  await sys?.stop();
});

async function cashin(msisdn: string) {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: `browser-${Date.now()}-${++seq}`,
    amount: 5000,
    customer_msisdn: msisdn,
    motif: 'Commande 42',
    return_url: `${shop.url}/back?cart=7`,
  });
  expect(res.status).toBe(202);
  return res.body.data as { transaction_id: string };
}

/** Opens the payment page and waits until the push is on the customer's phone (the page says PENDING). */
async function openPaymentPage(transactionId: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${sys.gatewayUrl}/pay/${transactionId}`);
  await waitForStatus(page, 'PENDING');
  // Set on this document only: still there at the end means the page changed state without a reload.
  await page.evaluate(() => {
    (globalThis as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  return page;
}

/** The customer types a code on the virtual phone of their number and sends it. */
async function typeCode(msisdn: string, code: string, shot?: string): Promise<void> {
  const phone = await context.newPage();
  // As a person opens the link `pnpm start` prints: the token becomes a cookie and leaves the URL.
  await phone.goto(`${sys.sim.url}/phone?msisdn=${encodeURIComponent(msisdn)}&token=${sys.sandboxToken}`);
  expect(new URL(phone.url()).searchParams.has('token')).toBe(false);
  await phone.waitForSelector('input[name="code"]', { timeout: 10_000 });
  if (shot) await screenshot(phone, shot);
  await phone.getByLabel('Secret code (4 digits)').fill(code);
  await phone.getByRole('button', { name: 'Send' }).click();
  // Back on the number's page, the prompt is answered.
  await phone.waitForSelector('li.recent', { timeout: 10_000 });
  await phone.close();
}

const sameDocument = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument === true);

describe('payment page and virtual phone in a browser', () => {
  it('success: confirmed on the phone, the page turns to success live, then returns to the shop', async () => {
    const msisdn = CI_NUMBER('55');
    const { transaction_id: id } = await cashin(msisdn);
    const page = await openPaymentPage(id);
    await page.waitForSelector('#cd-v');
    await screenshot(page, 'payment-pending');

    await typeCode(msisdn, '4821', 'virtual-phone');

    await waitForStatus(page, 'SUCCESS');
    await page.locator('#st-t', { hasText: 'Paiement réussi' }).waitFor({ timeout: 5_000 });
    expect(await sameDocument(page)).toBe(true);
    expect(await page.isVisible('#return')).toBe(true);
    await screenshot(page, 'payment-success');

    await page.waitForURL((url) => url.href.startsWith(`${shop.url}/back`), { timeout: 10_000 });
    const back = new URL(
      shop.requests.find((r) => r.startsWith('/back'))!,
      shop.url,
    );
    expect(Object.fromEntries(back.searchParams)).toEqual({ cart: '7', transaction_id: id, status: 'SUCCESS' });
    await page.close();
  }, 60_000);

  it('failure: a wrong secret code (0000) shows the reason in French', async () => {
    const msisdn = CI_NUMBER('56');
    const { transaction_id: id } = await cashin(msisdn);
    const page = await openPaymentPage(id);

    await typeCode(msisdn, '0000');

    await waitForStatus(page, 'FAILED');
    await page.locator('#st-d', { hasText: 'Code secret incorrect.' }).waitFor({ timeout: 5_000 });
    expect(await page.textContent('#st-t')).toBe('Paiement échoué');
    expect(await sameDocument(page)).toBe(true);
    await screenshot(page, 'payment-failed-wrong-code');

    await page.waitForURL((url) => url.href.startsWith(`${shop.url}/back`), { timeout: 10_000 });
    const back = new URL(shop.requests.filter((r) => r.startsWith('/back')).at(-1)!, shop.url);
    expect(Object.fromEntries(back.searchParams)).toEqual({ cart: '7', transaction_id: id, status: 'FAILED' });
    await page.close();
  }, 60_000);
});
