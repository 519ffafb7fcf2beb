import type { Browser, BrowserContext, Page } from 'playwright-core';
import { setOperatorAccountCredentials, upsertOperatorAccount } from '@mm/db/operator-accounts';
import { startOperatorMocks, type RunningOperatorMocks } from '@mm/operator-mocks';
import { freePort, waitFor } from '@mm/testing';
import { startSystem, type System } from '../support/system.js';
import { fitsTheScreen, launchBrowser, phoneContext, screenshot, waitForStatus } from './support.js';

/**
 * The customer actions of non-push operators, in a real browser: a redirect operator's page (the Orange
 * Money WebPay and Wave contract mocks) and a one-time code typed on our page (the simulator's 0701
 * numbers). The gateway listens on the port PUBLIC_BASE_URL names, so the operator sends the customer
 * back to the very page the test opened.
 */
let sys: System;
let mocks: RunningOperatorMocks;
let browser: Browser;
let context: BrowserContext;
let seq = 0;

const CONFIRMATION_TIMEOUT_S = 12;

beforeAll(async () => {
  browser = await launchBrowser();
  const port = await freePort();
  const publicBaseUrl = `http://127.0.0.1:${port}`;
  sys = await startSystem({
    confirmationTimeoutS: CONFIRMATION_TIMEOUT_S,
    gatewayEnv: { GATEWAY_PORT: String(port), PUBLIC_BASE_URL: publicBaseUrl },
    bridgeEnv: { PUBLIC_BASE_URL: publicBaseUrl },
  });
  mocks = await startOperatorMocks({
    ports: { mtnCi: 0, mtnCm: 0, orangeWebpay: 0, orangeMp: 0, wave: 0 },
    waveWebhookUrl: `${sys.bridgeUrl}/operator/callbacks/wave/ci`,
    providerCallbackHost: new URL(sys.bridgeUrl).hostname,
    outcomeDelayMs: 50,
    lateConfirmDelayMs: 60_000,
    waveAutoPay: false,
  });
  // CI Orange (WebPay) and CI Wave, configured as an admin would, pointed at their mocks.
  for (const a of mocks
    .accounts()
    .filter((x) => x.countryCode === 'CI' && (x.operator === 'ORANGE' || x.operator === 'WAVE'))) {
    await upsertOperatorAccount(sys.db, {
      countryCode: a.countryCode,
      operator: a.operator,
      api: a.api,
      baseUrl: a.baseUrl,
      settings: a.settings,
      enabled: true,
    });
    await setOperatorAccountCredentials(sys.db, sys.box, a.countryCode, a.operator, a.credentials);
  }
  context = await phoneContext(browser);
}, 90_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await mocks?.close();
  await sys?.stop();
});

async function cashin(msisdn: string, extra: Record<string, unknown> = {}) {
  // The gateway's routing reads the accounts just enabled once their change is heard: retried until then.
  const res = await waitFor(
    async () => {
      const r = await sys.api('POST', '/api/v1/payments/cashin', {
        merchant_order_id: `actions-${Date.now()}-${++seq}`,
        amount: 5000,
        customer_msisdn: msisdn,
        motif: 'Commande 42',
        ...extra,
      });
      return r.status === 202 || r.status === 200
        ? r
        : r.status === 503
          ? false
          : Promise.reject(new Error(`cash-in answered ${r.status}`));
    },
    { what: 'cash-in accepted', timeoutMs: 10_000, intervalMs: 100 },
  );
  return res.body.data as { transaction_id: string; payment_url: string };
}

const row = (id: string) => sys.db.transaction.findUniqueOrThrow({ where: { id } });
/** Until the operator acknowledged (the customer action is stored), as a customer would open the link right away. */
const acknowledged = (id: string) =>
  waitFor(async () => (await row(id)).status === 'PENDING', { what: 'PENDING', timeoutMs: 10_000 });

async function open(url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

describe('redirect operators', () => {
  it('Orange Money: "Payer avec Orange Money" leads to Orange\'s page; paid there, back on /pay/<id> the page turns SUCCESS', async () => {
    const { transaction_id: id, payment_url: url } = await cashin('+2250712345601');
    expect((await row(id)).operator).toBe('ORANGE');
    await acknowledged(id);
    const page = await open(url);
    const cta = page.getByRole('link', { name: 'Payer avec Orange Money' });
    await cta.waitFor({ timeout: 10_000 });
    expect(await fitsTheScreen(page)).toBe(true);
    await screenshot(page, 'payment-redirect');
    await cta.click();
    await page.getByRole('button', { name: 'Payer' }).waitFor({ timeout: 10_000 });
    expect(page.url().startsWith(mocks.urls.orangeWebpay)).toBe(true);
    await page.getByLabel('Numero Orange Money').fill('0712345601');
    await page.getByRole('button', { name: 'Payer' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${url}`), { timeout: 10_000 });
    await waitForStatus(page, 'SUCCESS', 20_000);
    expect(await page.textContent('#st-t')).toBe('Paiement réussi');
    expect(await page.isVisible('#pay-op')).toBe(false);
    expect((await row(id)).status).toBe('SUCCESS');
    await page.close();
  }, 60_000);

  it('Orange Money cancelled on its page: back with ?orange=cancel the page still waits (the query decides nothing), then expires', async () => {
    const { transaction_id: id, payment_url: url } = await cashin('+2250712345602');
    await acknowledged(id);
    const page = await open(url);
    await page.getByRole('link', { name: 'Payer avec Orange Money' }).click();
    await page.getByRole('button', { name: 'Annuler' }).click();
    await page.waitForURL((u) => u.searchParams.get('orange') === 'cancel', { timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe(`/pay/${id}`);
    await waitForStatus(page, 'PENDING');
    expect(await page.textContent('#st-t')).toBe('En attente de votre confirmation');
    await screenshot(page, 'payment-redirect-cancelled');
    // Orange never says "cancelled" to the merchant: the payment runs out of time, honestly shown so.
    await waitForStatus(page, 'EXPIRED', (CONFIRMATION_TIMEOUT_S + 15) * 1000);
    expect(await page.textContent('#st-t')).toBe('Délai dépassé');
    await page.close();
  }, 60_000);

  it('Wave: "Payer avec Wave" leads to the launch page; paid there, back on /pay/<id> the page turns SUCCESS', async () => {
    const { transaction_id: id, payment_url: url } = await cashin('+2250712345601', { operator: 'WAVE' });
    expect((await row(id)).operator).toBe('WAVE');
    await acknowledged(id);
    const page = await open(url);
    await page.getByRole('link', { name: 'Payer avec Wave' }).click();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((u) => u.pathname === `/pay/${id}`, { timeout: 10_000 });
    await waitForStatus(page, 'SUCCESS', 20_000);
    expect(await page.textContent('#st-t')).toBe('Paiement réussi');
    await page.close();
  }, 60_000);
});

describe('one-time code (simulator numbers +2250701…)', () => {
  async function typeCode(url: string, code: string): Promise<Page> {
    const page = await open(url);
    const input = page.getByLabel('Code à usage unique (4 à 8 chiffres)');
    await input.waitFor({ timeout: 10_000 });
    expect(await page.textContent('#ussd')).toBe('#144*82#');
    expect(await input.getAttribute('inputmode')).toBe('numeric');
    expect(await input.getAttribute('autocomplete')).toBe('one-time-code');
    await input.fill(code);
    return page;
  }

  it('the page asks for the code, the customer types it, the payment ends SUCCESS', async () => {
    const { transaction_id: id, payment_url: url } = await cashin('+2250701000001');
    await acknowledged(id);
    const page = await typeCode(url, '482913');
    expect(await fitsTheScreen(page)).toBe(true);
    await screenshot(page, 'payment-otp');
    await page.getByRole('button', { name: 'Valider le code' }).click();
    await page.waitForURL((u) => u.searchParams.get('code') === 'sent', { timeout: 10_000 });
    await waitForStatus(page, 'SUCCESS', 20_000);
    expect(await page.textContent('#st-t')).toBe('Paiement réussi');
    expect(await page.isVisible('#code-form')).toBe(false);
    await page.close();
  }, 60_000);

  it('a wrong code (000000) ends FAILED with the reason in French', async () => {
    const { transaction_id: id, payment_url: url } = await cashin('+2250701000002');
    await acknowledged(id);
    const page = await typeCode(url, '000000');
    await page.getByRole('button', { name: 'Valider le code' }).click();
    await waitForStatus(page, 'FAILED', 20_000);
    await page.locator('#st-d', { hasText: 'Code secret incorrect.' }).waitFor({ timeout: 5_000 });
    await screenshot(page, 'payment-otp-wrong-code');
    expect(await row(id)).toMatchObject({ status: 'FAILED', failureCode: 'INVALID_SECRET_CODE' });
    await page.close();
  }, 60_000);
});
