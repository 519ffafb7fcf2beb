import { waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

let sys: System;
let seq = 0;
const order = () => `page-${Date.now()}-${++seq}`;
const RETURN_URL = 'https://shop.example.test/back?cart=7';

beforeAll(async () => {
  // The operator answers after 1.5 s so the PENDING state can be seen first. Cash-outs on: a cash-out
  // id must not open the page.
  sys = await startSystem({ outcomeDelayMs: 1500, gatewayEnv: { DISBURSEMENT_ENABLED: 'true' } });
});
afterAll(async () => {
  await sys.stop();
});

async function cashin(suffix: string, extra: Record<string, unknown> = {}) {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: order(),
    amount: 5000,
    customer_msisdn: CI_NUMBER(suffix),
    ...extra,
  });
  expect(res.status).toBe(202);
  return res.body.data as Record<string, unknown> & { transaction_id: string; provider_reference: string };
}

const page = (id: string, lang?: string) =>
  fetch(`${sys.gatewayUrl}/pay/${id}`, { headers: lang ? { 'Accept-Language': lang } : {} });
const statusJson = async (id: string) => {
  const r = await fetch(`${sys.gatewayUrl}/pay/${id}/status`);
  return { res: r, body: (await r.json()) as Record<string, string> };
};
const statusUntil = (id: string, want: string) =>
  waitFor(
    async () => {
      const { body } = await statusJson(id);
      return body.status === want ? body : undefined;
    },
    { what: `page status ${want}`, timeoutMs: 15_000 },
  );
const plain = (html: string) => html.replace(/\u00a0/g, ' ');

function expectSecurityHeaders(res: Response) {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('cache-control')).toBe('no-store');
  return csp;
}

describe('hosted payment page', () => {
  it('shows the French page by default: merchant, amount, masked number, instruction, countdown, live status', async () => {
    const data = await cashin('01');
    const res = await page(data.transaction_id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('vary')).toMatch(/Accept-Language/i);
    const csp = expectSecurityHeaders(res);
    const html = await res.text();
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('Boutique Test');
    expect(plain(html)).toContain('5 000 F CFA');
    expect(html).not.toContain('\u202f');
    expect(html).toContain('+22507******01');
    expect(html).toContain('Composez votre code secret sur votre téléphone pour confirmer le paiement.');
    expect(html).toMatch(/data-remaining="\d+">0[45]:\d\d</);
    expect(html).toMatch(/role="status" aria-live="polite"/);
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
    expect(Buffer.byteLength(html)).toBeLessThan(50 * 1024);
    expect(html).not.toContain(CI_NUMBER('01'));
    expect(html).not.toContain(data.provider_reference);
  });

  it('speaks English when Accept-Language prefers it', async () => {
    const data = await cashin('01');
    const html = await (await page(data.transaction_id, 'en-US,en;q=0.9')).text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Enter your secret code on your phone to confirm the payment.');
    expect(plain(html)).toContain('5 000 F CFA');
    expect(await (await page(data.transaction_id, 'fr-FR,en;q=0.5')).text()).toContain('<html lang="fr">');
  });

  it('status JSON moves from PENDING to SUCCESS and then points back to return_url with transaction_id and status', async () => {
    const data = await cashin('01', { return_url: RETURN_URL });
    const first = await statusJson(data.transaction_id);
    expect(first.res.status).toBe(200);
    expectSecurityHeaders(first.res);
    expect(first.body).toEqual({ status: 'PENDING' });

    const done = await statusUntil(data.transaction_id, 'SUCCESS');
    expect(Object.keys(done).sort()).toEqual(['redirect_url', 'status']);
    const target = new URL(done.redirect_url!);
    expect(target.origin + target.pathname).toBe('https://shop.example.test/back');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      cart: '7',
      transaction_id: data.transaction_id,
      status: 'SUCCESS',
    });

    const html = await (await page(data.transaction_id)).text();
    expect(html).toContain('Paiement réussi');
    expect(html).not.toContain('id="cd"');
    const href = done.redirect_url!.replace(/&/g, '&amp;');
    expect(html).toContain(`<a id="return" href="${href}">`);
    expect(html).toContain(`<noscript><meta http-equiv="refresh" content="3;url=${href}"></noscript>`);

    // Nothing beyond what the page shows: no number in clear, no provider references.
    const full = (await sys.api('GET', `/api/v1/payments/${data.transaction_id}`)).body.data;
    expect(html).not.toContain(CI_NUMBER('01'));
    for (const secret of [full.provider_reference, full.provider_tx_id, full.merchant_order_id, sys.merchant.id]) {
      expect(typeof secret).toBe('string');
      expect(html).not.toContain(secret);
      expect(JSON.stringify(done)).not.toContain(secret);
    }
  });

  it('shows the failure in words for insufficient balance (number ending 02)', async () => {
    const data = await cashin('02');
    const done = await statusUntil(data.transaction_id, 'FAILED');
    expect(done).toEqual({ status: 'FAILED', failure_code: 'INSUFFICIENT_BALANCE' });
    const fr = await (await page(data.transaction_id)).text();
    expect(fr).toContain('Paiement échoué');
    expect(fr).toContain('Solde insuffisant.');
    const en = await (await page(data.transaction_id, 'en')).text();
    expect(en).toContain('Insufficient balance.');
    expect(fr).not.toContain('http-equiv="refresh"');
  });

  it('answers an unknown or malformed id with a 404 page in the chosen language and the same headers', async () => {
    const unknown = await page('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expectSecurityHeaders(unknown);
    const html = await unknown.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('Paiement introuvable');

    const malformed = await page('not-a-uuid', 'en-US,en;q=0.9');
    expect(malformed.status).toBe(404);
    expect(await malformed.text()).toContain('Payment not found');

    const json = await fetch(`${sys.gatewayUrl}/pay/not-a-uuid/status`);
    expect(json.status).toBe(404);
    expectSecurityHeaders(json);
  });

  it('answers a cash-out id with the same 404 as an unknown one: the page is for a customer paying, not for payouts', async () => {
    const paid = await cashin('01');
    await statusUntil(paid.transaction_id, 'SUCCESS');
    const payout = await sys.api('POST', '/api/v1/payments/cashout', {
      merchant_order_id: order(),
      amount: 1000,
      beneficiary_msisdn: CI_NUMBER('44'),
      reason: 'payout',
    });
    expect(payout.status).toBe(202);
    const id = payout.body.data.transaction_id as string;
    expect(await sys.db.transaction.count({ where: { id, type: 'CASHOUT' } })).toBe(1);

    const res = await page(id, 'en-US,en;q=0.9');
    expect(res.status).toBe(404);
    expectSecurityHeaders(res);
    const html = await res.text();
    expect(html).toContain('Payment not found');
    expect(html).not.toContain('Boutique Test');
    const json = await fetch(`${sys.gatewayUrl}/pay/${id}/status`);
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ error: 'not_found' });
  });
});
