import type { Browser, BrowserContext, Page } from 'playwright-core';
import { totpCode } from '@mm/merchant-portal';
import { waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from '../support/system.js';
import { PORTAL_PASSWORD, startSystemPortal, type PortalUserLogin } from '../support/portal.js';
import { launchBrowser, screenshot, VIEWPORT } from './support.js';

/**
 * A cash-out asked from the merchant's dashboard on a 360 px phone, with no script: the form, the
 * authenticator's code, the cash-out's page; then the same workers as for an API cash-out pay it.
 */
let sys: System;
let portal: Awaited<ReturnType<typeof startSystemPortal>>;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
  sys = await startSystem({ gatewayEnv: { DISBURSEMENT_ENABLED: 'true' } });
  portal = await startSystemPortal(sys, { DISBURSEMENT_ENABLED: 'true' });
  // The balance it draws on: a captured cash-in in Côte d'Ivoire.
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: `fund-${Date.now()}`,
    amount: 50_000,
    customer_msisdn: CI_NUMBER('01'),
  });
  expect(res.status).toBe(202);
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
    what: 'funding cash-in',
  });
}, 60_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await portal?.stop();
  await sys?.stop();
});

async function signIn(page: Page, user: PortalUserLogin): Promise<void> {
  await page.goto(`${portal.url}/login`);
  await page.fill('#email', user.email);
  await page.fill('#password', PORTAL_PASSWORD);
  await page.click('#sign-in-form button[type="submit"]');
  await page.waitForURL(/\/login\/code$/);
  await page.fill('#code', user.code());
  await page.click('#code-form button[type="submit"]');
  await page.waitForURL(`${portal.url}/`);
}

const scrollWidth = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
        .scrollWidth,
  );

it('requests a cash-out on a phone, in French, and the workers pay it', async () => {
  const user = await portal.user('finance');
  context = await browser.newContext({
    viewport: VIEWPORT,
    locale: 'fr-FR',
    extraHTTPHeaders: { 'Accept-Language': 'fr-FR,fr;q=0.9' },
    javaScriptEnabled: false,
  });
  const page = await context.newPage();
  await signIn(page, user);
  await page.click('a[data-nav="cashouts"]');
  await page.waitForURL(`${portal.url}/cashouts`);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(VIEWPORT.width);
  await screenshot(page, 'portal-phone-fr-cashouts');

  await page.fill('#cashout-beneficiary', '+225 07 07 12 34 01');
  await page.fill('#cashout-amount', '2 500');
  await page.fill('#cashout-reason', 'Fournisseur');
  // The sign-in used this step's code, and a code counts once: the next step's, which the window accepts.
  await page.fill('#cashout-code', totpCode(user.totpSecret, Date.now() + 30_000));
  await page.click('#cashout-form button[type="submit"]');
  await page.waitForURL(/\/cashouts\/[0-9a-f-]{36}\?requested=1$/);
  await expect(page.locator('#cashout-notice').innerText()).resolves.toContain('Décaissement demandé');
  expect(await scrollWidth(page)).toBeLessThanOrEqual(VIEWPORT.width);
  await screenshot(page, 'portal-phone-fr-cashout');

  const id = /\/cashouts\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const paid = await waitFor(
    async () => {
      const t = await sys.db.transaction.findUniqueOrThrow({ where: { id } });
      return t.status === 'SUCCESS' && t;
    },
    { what: 'the cash-out paid by the operator' },
  );
  expect(paid).toMatchObject({ merchantId: sys.merchant.id, type: 'CASHOUT', amount: 2500n, msisdn: '+2250707123401' });
  // The API reads it as any cash-out of the merchant's.
  const read = await sys.api('GET', `/api/v1/payments/${id}`);
  expect(read.body.data).toMatchObject({ type: 'CASHOUT', status: 'SUCCESS', amount: 2500 });
  await page.reload();
  await expect(page.locator('[data-field="status"]').innerText()).resolves.toContain('SUCCESS');
}, 90_000);
