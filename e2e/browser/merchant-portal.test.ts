import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from '../support/system.js';
import { PORTAL_PASSWORD, startSystemPortal, type PortalUserLogin } from '../support/portal.js';
import { DESK, pageWidth, PortalBrowser, type Lang } from './portal-browser.js';
import { launchBrowser, screenshot, VIEWPORT } from './support.js';

/**
 * The merchant's dashboard in a real browser (issue 42 point 6): signing in with two-factor, and the
 * pages at 360 px and on a desk, in French and in English (their screenshots are docs/screenshots/portal-*).
 */
let sys: System;
let portal: Awaited<ReturnType<typeof startSystemPortal>>;
let browser: Browser;
let pages: PortalBrowser;

beforeAll(async () => {
  browser = await launchBrowser();
  sys = await startSystem();
  portal = await startSystemPortal(sys);
  pages = new PortalBrowser(browser, () => portal.url);
  await collectAMonth();
}, 120_000);

/**
 * A month of collections for the home page's charts: cash-ins through the API that the simulated customers
 * approve or that the operator refuses (numbers ending 02-04: low balance, wrong code, limit), then spread
 * over the last 30 days by their creation date (the only way to make yesterday's payments today).
 */
async function collectAMonth(): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < 45; i++) {
    const suffix = i % 7 === 3 ? '02' : i % 11 === 5 ? '03' : i % 13 === 8 ? '04' : '01';
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: `month-${i}`,
      amount: 1500 + ((i * 2750) % 40_000),
      customer_msisdn: CI_NUMBER(suffix),
    });
    ids.push(res.body.data.transaction_id as string);
  }
  await waitFor(
    async () =>
      (await sys.db.transaction.count({ where: { id: { in: ids }, status: { in: ['SUCCESS', 'FAILED'] } } })) ===
      ids.length,
    { what: 'the month of cash-ins decided', timeoutMs: 60_000 },
  );
  await sys.db.$executeRaw`
    UPDATE transactions SET created_at = created_at - ((substring(merchant_order_id FROM 7)::int % 30) * interval '1 day')
     WHERE merchant_order_id LIKE 'month-%' AND merchant_id = ${sys.merchant.id}::uuid`;
}
afterAll(async () => {
  await pages?.close();
  await browser?.close();
  await portal?.stop();
  await sys?.stop();
});

const newPage = (lang: Lang, viewport = DESK) => pages.newPage(lang, viewport);
const signIn = (page: Page, user: PortalUserLogin, shots?: string) =>
  pages.signIn(page, user, shots ? (name) => screenshot(page, `${shots}-${name}`) : undefined);

describe('merchant portal in a browser', () => {
  it('signs in with two-factor, and refuses a wrong code with a message', async () => {
    const user = await portal.user('owner');
    const page = await newPage('en');
    await page.goto(`${portal.url}/login`);
    await page.fill('#email', user.email);
    await page.fill('#password', PORTAL_PASSWORD);
    await page.click('#sign-in-form button[type="submit"]');
    await page.waitForURL(/\/login\/code$/);
    await page.fill('#code', user.code() === '000000' ? '111111' : '000000');
    await page.click('#code-form button[type="submit"]');
    await expect(page.locator('#sign-in-error').innerText()).resolves.toContain('not valid');
    await page.fill('#code', user.code());
    await page.click('#code-form button[type="submit"]');
    await page.waitForURL(`${portal.url}/`);
    await expect(page.locator('#user-role').innerText()).resolves.toBe('Owner');
    await expect(page.locator('#balances').isVisible()).resolves.toBe(true);
  });

  for (const lang of ['fr', 'en'] as const) {
    it(`shows the home page on a phone and on a desk, in ${lang === 'fr' ? 'French' : 'English'}`, async () => {
      const user = await portal.user('owner');
      const phone = await newPage(lang, VIEWPORT);
      await signIn(phone, user, `portal-phone-${lang}`);
      await expect(phone.locator('html').getAttribute('lang')).resolves.toBe(lang);
      await expect(phone.locator('svg.chart').count()).resolves.toBeGreaterThan(0);
      await screenshot(phone, `portal-phone-${lang}-home`);
      expect(await pageWidth(phone)).toBeLessThanOrEqual(VIEWPORT.width);

      const desk = await newPage(lang);
      await signIn(desk, await portal.user('finance'));
      await screenshot(desk, `portal-desk-${lang}-home`);
    });
  }
});
