import type { Browser } from 'playwright-core';
import { startSystem, type System } from '../support/system.js';
import { launchBrowser, screenshot } from './support.js';

/** The readable API reference (/api/v1/docs): Swagger UI over the served OpenAPI document, in Debian's Chromium. */
let sys: System;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  sys = await startSystem();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sys?.stop();
});

it('renders every operation and both webhooks from /api/v1/openapi.json, with nothing refused by its CSP', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });

  const res = await page.goto(`${sys.gatewayUrl}/api/v1/docs`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await page.waitForSelector('.opblock', { timeout: 45_000 }).catch((err: Error) => {
    throw new Error(`${err.message}\n${problems.join('\n')}`);
  });

  const operations = await page.$$eval('.opblock', (blocks) =>
    blocks.map((b) => {
      const method = b.querySelector('.opblock-summary-method')?.textContent?.trim();
      const path = (
        b.querySelector('.opblock-summary-path') ?? b.querySelector('.opblock-summary-path__deprecated')
      )?.textContent
        ?.replace(/\u200b/g, '')
        .trim();
      return `${method} ${path}`;
    }),
  );
  expect(operations).toEqual(
    expect.arrayContaining([
      'POST /payments/cashin',
      'POST /payments/cashout',
      'GET /payments/{id}',
      'POST /refunds',
      'GET /refunds/{id}',
      'GET /balances',
      'GET /transactions/export',
      'GET /webhook-events',
      'GET /openapi.json',
      'POST transaction.status_changed',
      'POST refund.status_changed',
    ]),
  );
  expect(await page.locator('.info .title').innerText()).toContain('Mobile-money collection API');
  expect(await page.locator('.info').innerText()).toContain('X-Service-Signature');
  await screenshot(page, 'api-reference');
  // Requests must be HMAC-signed with a secret that does not belong in a browser: no "Try it out".
  await page.locator('.opblock-summary').first().click();
  await page.waitForSelector('.opblock.is-open');
  expect(await page.locator('button.try-out__btn').count()).toBe(0);

  expect(problems).toEqual([]);
  await context.close();
}, 60_000);
