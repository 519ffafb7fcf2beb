import type { Browser, Page } from 'playwright-core';
import { signedClient, waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from '../support/system.js';
import { startSystemPortal, type PortalUserLogin } from '../support/portal.js';
import { DESK, pageWidth, PortalBrowser, type Lang } from './portal-browser.js';
import { launchBrowser, screenshot, VIEWPORT } from './support.js';

/**
 * What the merchant does in the dashboard, in a real browser against the whole system (issue 42 point 6):
 * a refund from a payment's page, a key rolled and both secrets signing API calls in the overlap, a
 * webhook the merchant's server missed sent again to it, a viewer refused a refund, and the payments
 * page at 360 px (screenshots docs/screenshots/portal-*-payments*).
 */
let sys: System;
let portal: Awaited<ReturnType<typeof startSystemPortal>>;
let browser: Browser;
let pages: PortalBrowser;
let seq = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  sys = await startSystem();
  portal = await startSystemPortal(sys);
  pages = new PortalBrowser(browser, () => portal.url);
}, 60_000);
afterAll(async () => {
  await pages?.close();
  await browser?.close();
  await portal?.stop();
  await sys?.stop();
});

const newPage = (lang: Lang, viewport = DESK) => pages.newPage(lang, viewport);
const signIn = (page: Page, user: PortalUserLogin) => pages.signIn(page, user);

/** A cash-in through the API that the simulated customer approves. */
async function capturedCashin(amount = 5000): Promise<string> {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: `portal-e2e-${Date.now()}-${++seq}`,
    amount,
    customer_msisdn: CI_NUMBER('01'),
  });
  expect(res.status).toBe(202);
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
    what: 'captured cash-in',
  });
  return id;
}

describe('merchant portal actions in a browser', () => {
  it('refunds part of a payment from its page; the refund reaches SUCCESS and the API sees it', async () => {
    const tx = await capturedCashin(5000);
    const finance = await portal.user('finance');
    const page = await newPage('en');
    await signIn(page, finance);
    await page.goto(`${portal.url}/payments`);
    await page.click(`tr[data-payment-id="${tx}"] a`);
    await page.waitForURL(`${portal.url}/payments/${tx}`);
    await page.fill('#refund-amount', '1500');
    await page.fill('#refund-reason', 'one item returned');
    await page.fill('#refund-code', finance.nextCode());
    await page.click('#refund-form button[type="submit"]');
    await page.waitForURL(new RegExp(`/payments/${tx}\\?refund=`));
    const refundId = new URL(page.url()).searchParams.get('refund')!;
    await expect(
      page.locator(`#refunds tr[data-refund-id="${refundId}"] td[data-amount]`).getAttribute('data-amount'),
    ).resolves.toBe('1500');
    await waitFor(async () => (await sys.api('GET', `/api/v1/refunds/${refundId}`)).body.data.status === 'SUCCESS', {
      what: 'the refund done by the operator',
    });
    await page.reload();
    await expect(page.locator(`#refunds tr[data-refund-id="${refundId}"]`).innerText()).resolves.toContain('SUCCESS');
    await expect(page.locator('[data-refundable]').innerText()).resolves.toMatch(/3[\s\u202f]?500/);
    const fromApi = (await sys.api('GET', `/api/v1/refunds/${refundId}`)).body.data;
    expect(fromApi).toMatchObject({ transaction_id: tx, amount: 1500, reason: 'one item returned' });
  });

  it('refuses a viewer a refund: no form, and a forged post answers 403 with nothing written', async () => {
    const tx = await capturedCashin(3000);
    const viewer = await portal.user('viewer');
    const page = await newPage('fr');
    await signIn(page, viewer);
    await page.goto(`${portal.url}/payments/${tx}`);
    await expect(page.locator('#payment-fields').isVisible()).resolves.toBe(true);
    await expect(page.locator('#refund-form').count()).resolves.toBe(0);
    // The same post a refund form would send, with the session's own CSRF token (from the sign-out form).
    const csrf = await page.locator('input[name="_csrf"]').first().getAttribute('value');
    const answer = await page.request.post(`${portal.url}/payments/${tx}/refund`, {
      form: {
        _csrf: csrf!,
        idempotency_key: crypto.randomUUID(),
        amount: '1000',
        reason: 'x',
        code: viewer.nextCode(),
      },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain('Votre rôle');
    const refunds = await sys.db.refund.count({ where: { transactionId: tx } });
    expect(refunds).toBe(0);
  });

  it('rolls a key: the new secret signs calls, and the old one still does during the overlap', async () => {
    const developer = await portal.user('developer');
    const page = await newPage('en');
    await signIn(page, developer);
    await page.goto(`${portal.url}/developers`);
    const row = page.locator(`tr[data-key="${sys.merchant.apiKey}"]`);
    await row.locator('select[name="grace_s"]').selectOption('86400');
    await row.locator('form.roll input[name="code"]').fill(developer.nextCode());
    await row.locator('form.roll button[type="submit"]').click();
    await page.waitForSelector('#issued-key');
    const apiKey = await page.locator('#api-key').innerText();
    const apiSecret = await page.locator('#api-secret').innerText();
    expect(apiKey).not.toBe(sys.merchant.apiKey);
    await expect(page.locator('#old-key-until').innerText()).resolves.toContain(sys.merchant.apiKey);

    const rolled = signedClient(sys.gatewayUrl, apiKey, apiSecret);
    const withNew = await rolled('GET', '/api/v1/balances');
    const withOld = await sys.api('GET', '/api/v1/balances');
    expect(withNew.status).toBe(200);
    expect(withOld.status).toBe(200);
    expect(withNew.body.data).toEqual(withOld.body.data);
    // A secret that was never issued is still refused: the check is real.
    const forged = signedClient(sys.gatewayUrl, apiKey, `${apiSecret.slice(0, -2)}xx`);
    expect((await forged('GET', '/api/v1/balances')).status).toBe(401);
  });

  it("sends again a webhook the merchant's server missed, and the server gets the same event", async () => {
    sys.receiver.status(500);
    const tx = await capturedCashin(2000);
    const event = await waitFor(
      async () =>
        (await sys.db.webhookEvent.findFirst({ where: { transactionId: tx, status: 'ABANDONED' } })) ?? undefined,
      { what: 'the webhook given up after its retries' },
    );
    sys.receiver.status(200);
    const before = sys.receiver.received.length;

    const developer = await portal.user('developer');
    const page = await newPage('en');
    await signIn(page, developer);
    await page.goto(`${portal.url}/developers/webhooks?status=ABANDONED`);
    await page.click(`tr[data-event="${event.id}"] a`);
    await page.waitForURL(`${portal.url}/developers/webhooks/${event.id}`);
    await page.fill('#resend-code', developer.nextCode());
    await page.click('#resend-form button[type="submit"]');
    await page.waitForSelector('#developers-notice');

    const arrived = await waitFor(
      () =>
        sys.receiver.received
          .slice(before)
          .find((w) => w.body.transaction_id === tx && w.body.event_id === event.id && w.body.status === 'SUCCESS'),
      { what: 'the re-sent webhook at the merchant' },
    );
    expect(arrived.rawBody).toBe(event.body);
    await waitFor(
      async () => (await sys.db.webhookEvent.findUnique({ where: { id: event.id } }))?.status === 'DELIVERED',
      { what: 'the event delivered' },
    );
  });

  for (const lang of ['fr', 'en'] as const) {
    it(`shows the payments, a payment's page, statements, cash-outs, developers, account and security on a phone and on a desk, in ${lang === 'fr' ? 'French' : 'English'}`, async () => {
      const tx = await capturedCashin(7500);
      const phone = await newPage(lang, VIEWPORT);
      await signIn(phone, await portal.user('owner'));
      await phone.goto(`${portal.url}/payments`);
      await expect(phone.locator(`tr[data-payment-id="${tx}"]`).isVisible()).resolves.toBe(true);
      await screenshot(phone, `portal-phone-${lang}-payments`);
      expect(await pageWidth(phone)).toBeLessThanOrEqual(VIEWPORT.width);
      await phone.goto(`${portal.url}/payments/${tx}`);
      await screenshot(phone, `portal-phone-${lang}-payment`);
      expect(await pageWidth(phone)).toBeLessThanOrEqual(VIEWPORT.width);
      for (const area of ['statements', 'cashouts', 'account', 'security'] as const) {
        await phone.goto(`${portal.url}/${area}`);
        // Disbursement is off on this system: its cash-outs page explains it (merchant-portal-cashouts.test.ts shows the form).
        await screenshot(phone, `portal-phone-${lang}-${area === 'cashouts' ? 'cashouts-unavailable' : area}`);
        expect(await pageWidth(phone)).toBeLessThanOrEqual(VIEWPORT.width);
      }
      await phone.goto(`${portal.url}/developers`);
      await screenshot(phone, `portal-phone-${lang}-developers`);
      expect(await pageWidth(phone)).toBeLessThanOrEqual(VIEWPORT.width);

      const desk = await newPage(lang);
      await signIn(desk, await portal.user('owner'));
      await desk.goto(`${portal.url}/payments`);
      await screenshot(desk, `portal-desk-${lang}-payments`);
      await desk.goto(`${portal.url}/payments/${tx}`);
      await screenshot(desk, `portal-desk-${lang}-payment`);
      for (const area of ['statements', 'cashouts', 'developers', 'account', 'security'] as const) {
        await desk.goto(`${portal.url}/${area}`);
        await screenshot(desk, `portal-desk-${lang}-${area}`);
      }
    });
  }
});
