import { readFile } from 'node:fs/promises';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { freePort, waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from '../support/system.js';
import { startSystemPortal, type PortalUserLogin } from '../support/portal.js';
import { DESK, pageWidth, PortalBrowser, type Lang } from './portal-browser.js';
import { launchBrowser, phoneContext, screenshot, VIEWPORT } from './support.js';

// jsqr is CommonJS with a default export: under ESM the module itself is the function.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

/**
 * Payment links in the merchant's dashboard, in a real browser with no script: a link created from the
 * form, seen in the list, opened; its address is the gateway's customer page (a customer pays through it
 * and the payment shows on the link's page); its QR code downloaded as a PNG that reads back as that
 * address; then deactivated. Screenshots of the list and a link's page: docs/screenshots/portal-*-links
 * and portal-*-link, on a 360 px phone and a desk, in French and English (and the form on a phone,
 * portal-phone-*-link-new).
 */
let sys: System;
let portal: Awaited<ReturnType<typeof startSystemPortal>>;
let browser: Browser;
let pages: PortalBrowser;
let gatewayUrl: string;

beforeAll(async () => {
  browser = await launchBrowser();
  // The gateway listens where PUBLIC_BASE_URL says, and the portal is told the same: the address the
  // dashboard shows is the page the browser opens.
  const port = await freePort();
  gatewayUrl = `http://127.0.0.1:${port}`;
  sys = await startSystem({
    gatewayEnv: { GATEWAY_PORT: String(port), PUBLIC_BASE_URL: gatewayUrl },
    bridgeEnv: { PUBLIC_BASE_URL: gatewayUrl },
  });
  portal = await startSystemPortal(sys, { GATEWAY_PUBLIC_URL: gatewayUrl });
  pages = new PortalBrowser(browser, () => portal.url);
  // Links made through the API, for a list of several kinds.
  const links = [
    { description: 'Cotisation annuelle 2027', country_code: 'CI', amount: 25_000, reusable: true, max_payments: 200 },
    { description: 'Don libre', country_code: 'CI', min_amount: 500, max_amount: 100_000, reusable: true },
    { description: 'Sac en raphia', country_code: 'CM', amount: 12_000 },
  ];
  for (const body of links) expect((await sys.api('POST', '/api/v1/payment-links', body)).status).toBe(201);
  const old = await sys.api('POST', '/api/v1/payment-links', {
    description: 'Soldes de janvier',
    country_code: 'CI',
    amount: 5000,
  });
  const oldId = old.body.data.payment_link_id as string;
  expect((await sys.api('POST', `/api/v1/payment-links/${oldId}/deactivate`, { payment_link_id: oldId })).status).toBe(
    200,
  );
}, 60_000);
afterAll(async () => {
  await pages?.close();
  await browser?.close();
  await portal?.stop();
  await sys?.stop();
});

const goto = async (page: Page, path: string) => {
  await page.goto(`${portal.url}${path}`);
};

async function signedIn(user: PortalUserLogin, lang: Lang, viewport = DESK): Promise<Page> {
  const page = await pages.newPage(lang, viewport);
  await pages.signIn(page, user);
  return page;
}

describe('payment links in the dashboard', () => {
  it('creates a link from the form, lists it, opens it, downloads its QR code and deactivates it', async () => {
    const user = await portal.user('finance');
    const page = await signedIn(user, 'en');
    await page.click('a[data-nav="links"]');
    await page.waitForURL(`${portal.url}/links`);
    await page.click('#new-link');
    await page.waitForURL(`${portal.url}/links/new`);

    // A form refused first: nothing is created, what was typed stays.
    await page.fill('#link-description', 'Robe wax taille M');
    await page.selectOption('#link-country', 'CI');
    await page.fill('#link-amount', '15,5');
    await page.click('#link-form button[type="submit"]');
    await expect(page.locator('#link-errors').innerText()).resolves.toContain('whole number of francs');
    expect(await page.inputValue('#link-description')).toBe('Robe wax taille M');
    expect(await sys.db.paymentLink.count({ where: { description: 'Robe wax taille M' } })).toBe(0);

    await page.fill('#link-amount', '15 000');
    await page.click('#link-form button[type="submit"]');
    await page.waitForURL(/\/links\/[0-9a-f-]{36}\?created=1$/);
    await expect(page.locator('#link-notice').innerText()).resolves.toContain('The link is created');
    const id = /\/links\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const stored = await sys.db.paymentLink.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ merchantId: sys.merchant.id, amount: 15_000n, reusable: false, countryCode: 'CI' });
    const url = await page.innerText('#link-url');
    expect(url).toBe(`${gatewayUrl}/l/${stored.slug}`);

    // The list shows it first, active, nothing paid yet.
    await page.click('a[data-nav="links"]');
    const row = page.locator(`tr[data-link-id="${id}"]`);
    await expect(page.locator('#links-table tbody tr').first().getAttribute('data-link-id')).resolves.toBe(id);
    await expect(row.locator('[data-status]').getAttribute('data-status')).resolves.toBe('ACTIVE');
    await row.locator('a').click();
    await page.waitForURL(`${portal.url}/links/${id}`);

    // The QR code as a file from the portal: a PNG a camera reads as the link's address.
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('#download-png')]);
    expect(png.suggestedFilename()).toBe(`payment-link-${stored.slug}.png`);
    const bytes = await readFile((await png.path())!);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const image = PNG.sync.read(bytes);
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(url);
    const [svg] = await Promise.all([page.waitForEvent('download'), page.click('#download-svg')]);
    expect(svg.suggestedFilename()).toBe(`payment-link-${stored.slug}.svg`);

    // A customer opens the address on a phone and pays; the payment shows on the link's page.
    const customer = await phoneContext(browser);
    const pay = await customer.newPage();
    await pay.goto(url);
    await pay.locator('#msisdn').fill(CI_NUMBER('01'));
    await pay.click('#pay');
    await pay.waitForURL((u) => u.pathname.startsWith('/pay/'), { timeout: 15_000 });
    const paymentId = new URL(pay.url()).pathname.split('/')[2]!;
    await waitFor(
      async () => (await sys.db.transaction.findUniqueOrThrow({ where: { id: paymentId } })).status === 'SUCCESS',
      { what: 'the payment through the link' },
    );
    await customer.close();
    await page.reload();
    await expect(page.locator(`tr[data-payment-id="${paymentId}"]`).count()).resolves.toBe(1);
    await expect(page.locator('[data-field="collected"]').innerText()).resolves.toContain('15');
    await expect(page.locator('[data-status]').first().getAttribute('data-status')).resolves.toBe('COMPLETED');
    // All of the link's payments, in the payments list filtered on it.
    await page.click('#all-link-payments');
    await page.waitForURL(`${portal.url}/payments?link=${id}`);
    await expect(page.locator('#link-filter').count()).resolves.toBe(1);
    await expect(
      page.locator('tr[data-payment-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-payment-id'))),
    ).resolves.toEqual([paymentId]);
    await goto(page, `/links/${id}`);

    // Screenshots, before the deactivation: the list and this link's page, each size, each language.
    for (const lang of ['fr', 'en'] as const) {
      for (const [size, viewport] of [
        ['phone', VIEWPORT],
        ['desk', DESK],
      ] as const) {
        const shot =
          lang === 'en' && size === 'desk' ? page : await signedIn(await portal.user('finance'), lang, viewport);
        await goto(shot, '/links');
        if (size === 'phone') expect(await pageWidth(shot)).toBeLessThanOrEqual(VIEWPORT.width);
        await screenshot(shot, `portal-${size}-${lang}-links`);
        await goto(shot, `/links/${id}`);
        if (size === 'phone') expect(await pageWidth(shot)).toBeLessThanOrEqual(VIEWPORT.width);
        await screenshot(shot, `portal-${size}-${lang}-link`);
        if (size === 'phone') {
          await goto(shot, '/links/new');
          expect(await pageWidth(shot)).toBeLessThanOrEqual(VIEWPORT.width);
          await screenshot(shot, `portal-phone-${lang}-link-new`);
          await goto(shot, `/payments?link=${id}`);
          expect(await pageWidth(shot)).toBeLessThanOrEqual(VIEWPORT.width);
          await screenshot(shot, `portal-phone-${lang}-link-payments`);
        }
      }
    }

    // Deactivated: at once, for good.
    await goto(page, `/links/${id}`);
    await page.click('#deactivate-form button[type="submit"]');
    await page.waitForURL(`${portal.url}/links/${id}?deactivated=1`);
    await expect(page.locator('#link-notice').innerText()).resolves.toContain('deactivated');
    await expect(page.locator('#deactivate-form').count()).resolves.toBe(0);
    expect((await sys.db.paymentLink.findUniqueOrThrow({ where: { id } })).deactivatedAt).not.toBeNull();
    await goto(page, '/links?status=INACTIVE');
    await expect(page.locator(`tr[data-link-id="${id}"]`).count()).resolves.toBe(1);
    expect(
      await sys.db.auditEntry.count({ where: { targetId: id, action: { startsWith: 'portal.payment_link.' } } }),
    ).toBe(2);
  }, 120_000);
});
