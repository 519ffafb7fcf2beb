import type { Browser, BrowserContext } from 'playwright-core';
import { CI_NUMBER, startSystem, type System } from '../support/system.js';
import { launchBrowser, phoneContext, screenshot, waitForStatus } from './support.js';

/** Its own system: a 2 s confirmation timeout, so a push nobody answers (number ending 06) expires quickly. */
let sys: System;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchBrowser();
  sys = await startSystem({ confirmationTimeoutS: 2 });
  context = await phoneContext(browser);
}, 60_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await sys?.stop();
});

it('expiry: nobody confirms, the page says the delay has passed', async () => {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: `browser-expiry-${Date.now()}`,
    amount: 5000,
    customer_msisdn: CI_NUMBER('06'),
  });
  expect(res.status).toBe(202);
  const id = (res.body.data as { transaction_id: string }).transaction_id;
  const page = await context.newPage();
  await page.goto(`${sys.gatewayUrl}/pay/${id}`);

  await waitForStatus(page, 'EXPIRED', 20_000);
  expect(await page.textContent('#st-t')).toBe('Délai dépassé');
  expect(await page.textContent('#st-d')).toContain('Le délai de confirmation est dépassé');
  expect(await page.isHidden('#instr')).toBe(true);
  await screenshot(page, 'payment-expired');
  await page.close();
}, 60_000);
