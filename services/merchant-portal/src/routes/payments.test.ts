/**
 * The Payments area over HTTP: the list (filters in the URL, keyset pages without a duplicate or a gap,
 * numbers masked as the API masks them, 400 on a bad filter), the detail (timeline, refunds, webhook
 * events with their attempts) and the isolation between merchants.
 */
import { randomUUID } from 'node:crypto';
import { maskMsisdn } from '@mm/domain';
import { createRefund } from '@mm/db/payments';
import { cashin, cashout, deliveryAttempt } from '../test-support/payment-seeds.js';
import { startPortalFixture, type PortalFixture, type PortalUser } from '../test-support/portal-fixture.js';
import type { TestClient } from '@mm/testing';

let portal: PortalFixture;
let shop: string;
let otherShop: string;
let owner: PortalUser;
let viewer: PortalUser;
let client: TestClient;
let viewerClient: TestClient;

beforeAll(async () => {
  portal = await startPortalFixture();
  shop = await portal.createMerchant('Boutique Awa');
  otherShop = await portal.createMerchant('Autre Boutique');
  // Terminal moves record a webhook event for a merchant with a webhook address.
  await portal.db.merchant.update({ where: { id: shop }, data: { webhookUrl: 'https://shop.example/hooks' } });
  owner = await portal.createUser(shop, 'owner');
  viewer = await portal.createUser(shop, 'viewer', { twoFactor: false });
  client = portal.client({ 'accept-language': 'en' });
  await portal.signIn(client, owner);
  viewerClient = portal.client({ 'accept-language': 'fr' });
  await portal.signIn(viewerClient, viewer);
});
afterAll(() => portal.stop());

/** The payment ids of a list page, in the order shown. */
const idsOf = (text: string) => [...text.matchAll(/data-payment-id="([0-9a-f-]{36})"/g)].map((m) => m[1]!);
const olderLink = (text: string) => /id="older-page" href="([^"]+)"/.exec(text)?.[1]?.replace(/&amp;/g, '&');

describe('the payment list', () => {
  it("lists the merchant's cash-ins and cash-outs newest first, numbers masked as the API masks them", async () => {
    const a = await cashin(portal.db, shop, { msisdn: '+2250707123456', amount: 5000 });
    const b = await cashin(portal.db, shop, { msisdn: '+2250707654321' }, 'FAILED');
    const out = await cashout(portal.db, shop, 700);
    const theirs = await cashin(portal.db, otherShop);

    const page = await client.get('/payments');
    expect(page.status).toBe(200);
    const ids = idsOf(page.text);
    expect(ids.slice(0, 3)).toEqual([out.id, b.id, a.id]);
    expect(ids).not.toContain(theirs.id);
    expect(page.text).toContain(maskMsisdn('+2250707123456'));
    expect(page.text).toContain('+22507******56');
    expect(page.text).not.toContain('+2250707123456');
    expect(page.text).toContain(`href="/payments/${a.id}"`);
    expect(page.text).toContain('data-nav="payments" aria-current="page"');

    const payouts = await client.get('/payments?type=CASHOUT');
    expect(idsOf(payouts.text)).toEqual([out.id]);
    const cashins = idsOf((await client.get('/payments?type=CASHIN')).text);
    expect(cashins).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(cashins).not.toContain(out.id);
  });

  it('filters by status, operator, country, dates, amount, full number and order id, each in the URL', async () => {
    const run = randomUUID().slice(0, 8);
    const mtn = await cashin(portal.db, shop, { operator: 'MTN', amount: 25_000, merchantOrderId: `f-${run}-1` });
    const orange = await cashin(portal.db, shop, {
      operator: 'ORANGE',
      amount: 300,
      msisdn: '+2250707111222',
      merchantOrderId: `f-${run}-2`,
    });
    const cameroon = await cashin(portal.db, shop, {
      countryCode: 'CM',
      currency: 'XAF',
      msisdn: '+237677123456',
      merchantOrderId: `f-${run}-3`,
    });
    const failed = await cashin(portal.db, shop, { merchantOrderId: `f-${run}-4` }, 'FAILED');
    // The other merchant's row with the same order id and number is never found.
    await cashin(portal.db, otherShop, { merchantOrderId: `f-${run}-2`, msisdn: '+2250707111222' });
    const list = async (q: string) => {
      const res = await client.get(`/payments?${q}`);
      expect(res.status).toBe(200);
      return idsOf(res.text);
    };

    expect(await list(`order_id=f-${run}-2`)).toEqual([orange.id]);
    expect(await list('number=%2B225%2007%2007%2011%2012%2022')).toEqual([orange.id]);
    expect(await list('operator=MTN')).toContain(mtn.id);
    expect(await list('operator=MTN')).not.toContain(orange.id);
    expect(await list('country=cm')).toEqual([cameroon.id]);
    const failedIds = await list('status=FAILED');
    expect(failedIds).toContain(failed.id);
    expect(failedIds).not.toContain(mtn.id);
    expect(await list('amount_min=20000&amount_max=25000')).toEqual([mtn.id]);
    expect(await list(`amount_max=300&order_id=f-${run}-2`)).toEqual([orange.id]);
    const today = new Date(portal.clock.now).toISOString().slice(0, 10);
    const created = mtn.createdAt.toISOString().slice(0, 10);
    expect(await list(`from=${created}&to=${created}&operator=MTN`)).toContain(mtn.id);
    expect(await list(`from=2020-01-01&to=2020-01-31`)).toEqual([]);
    // The form shows the search again, as typed.
    const page = await client.get(`/payments?status=FAILED&from=${today}`);
    expect(page.text).toMatch(/<option value="FAILED" selected>/);
    expect(page.text).toContain(`value="${today}"`);
  });

  it('pages newest first on (created_at, id): every row once, none missing, ties on the instant included', async () => {
    const shopC = await portal.createMerchant('Many payments');
    const user = await portal.createUser(shopC, 'viewer', { twoFactor: false });
    const c = portal.client({ 'accept-language': 'en' });
    await portal.signIn(c, user);
    const made: string[] = [];
    for (let i = 0; i < 120; i++) made.push((await cashin(portal.db, shopC, {}, 'CREATED')).id);
    // 40 rows of one instant across the first page's end: the id breaks the tie.
    await portal.db.transaction.updateMany({
      where: { id: { in: made.slice(50, 90) } },
      data: { createdAt: new Date('2031-05-05T10:00:00.000Z') },
    });
    const expected = (
      await portal.db.transaction.findMany({
        where: { merchantId: shopC },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: { id: true },
      })
    ).map((r) => r.id);

    const seen: string[] = [];
    let next: string | undefined = '/payments';
    let pages = 0;
    while (next) {
      const res = await c.get(next);
      expect(res.status).toBe(200);
      seen.push(...idsOf(res.text));
      next = olderLink(res.text);
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(120);
  });

  it('refuses a bad filter with a 400 page naming it, in the user language, and runs no search', async () => {
    const en = await client.get('/payments?status=BOGUS&number=0707000001&amount_min=abc&from=2024-02-30&after=nope');
    expect(en.status).toBe(400);
    expect(en.text).toContain('id="search-errors"');
    for (const message of [
      'Unknown status.',
      'Enter the whole number in international form',
      '"Amount from" is a whole number of francs.',
      '"From" is not a date (YYYY-MM-DD).',
      'The page link is damaged',
    ]) {
      expect(en.text).toContain(message.replace(/"/g, '&quot;'));
    }
    expect(idsOf(en.text)).toEqual([]);

    const fr = await viewerClient.get('/payments?amount_min=500&amount_max=100&status=SUCCESS&status=FAILED');
    expect(fr.status).toBe(400);
    expect(fr.text).toContain('Un champ de la recherche a été donné plusieurs fois.');
    expect(fr.text).toContain('« Montant à partir de » dépasse « Montant jusqu&#39;à ».');
    // A partial number would search what the mask hides: refused.
    expect((await client.get('/payments?number=%2B22507')).status).toBe(400);
  });
});

describe('the payment detail', () => {
  it('shows the fields, the state timeline, the refunds and every webhook event with its attempts', async () => {
    const t = await cashin(portal.db, shop, { msisdn: '+2250707345678', amount: 4000, motif: 'Commande 42' });
    const refund = await createRefund(portal.db, {
      merchantId: shop,
      transactionId: t.id,
      amount: 1500,
      reason: 'article manquant',
      idempotencyKey: null,
      requestFingerprint: 'seed',
    });
    const [event] = await portal.db.webhookEvent.findMany({ where: { transactionId: t.id } });
    await deliveryAttempt(portal.db, event!.id, {
      attemptNo: 1,
      statusCode: 503,
      error: 'HTTP_ERROR',
      errorDetail: 'connect to 10.0.0.7 refused',
      ok: false,
    });
    await deliveryAttempt(portal.db, event!.id, {
      attemptNo: 2,
      statusCode: 200,
      error: null,
      errorDetail: null,
      ok: true,
    });

    const page = await client.get(`/payments/${t.id}`);
    expect(page.status).toBe(200);
    const text = page.text;
    expect(text).toContain('data-field="msisdn">+22507******78<');
    expect(text).not.toContain('+2250707345678');
    expect(text).toContain(`<code>${t.providerReference}</code>`);
    expect(text).toContain(`data-field="provider_tx_id">OP-${t.id.slice(0, 8)}<`);
    expect(text).toContain('Commande 42');
    // Timeline: every move, the operator's words, the refund and both attempts.
    for (const to of ['INITIATED', 'PENDING', 'SUCCESS']) expect(text).toContain(`data-kind="state" data-to="${to}"`);
    expect(text).toContain('data-detail="provider_txn_status"');
    expect(text).toContain(`data-kind="refund" data-refund-id="${refund.refund.id}"`);
    expect(text).toContain(`data-kind="webhook" data-event-id="${event!.id}" data-attempt="1"`);
    expect(text).toContain(`data-kind="webhook" data-event-id="${event!.id}" data-attempt="2"`);
    // Refunds: with the reason.
    expect(text).toMatch(new RegExp(`<tr data-refund-id="${refund.refund.id}">[\\s\\S]*?article manquant`));
    expect(text).toContain('data-amount="1500"');
    // The webhook event, delivered at the second attempt; the first one's merchant-facing error only.
    expect(text).toContain(`<section class="card" data-event-id="${event!.id}">`);
    expect(text).toContain('data-status="DELIVERED"');
    expect(text).toContain('<span data-error>HTTP_ERROR</span>');
    expect(text).toContain('HTTP <span data-status-code>503</span>');
    expect(text).not.toContain('10.0.0.7');
  });

  it("answers 404 for another merchant's payment, an unknown id and a malformed one", async () => {
    const theirs = await cashin(portal.db, otherShop);
    for (const path of [`/payments/${theirs.id}`, `/payments/${randomUUID()}`, '/payments/not-a-uuid']) {
      const res = await client.get(path);
      expect(res.status).toBe(404);
      expect(res.text).toContain('There is no such page.');
      expect(res.text).not.toContain(theirs.merchantOrderId);
    }
  });

  it('a viewer sees the payment without the refund form', async () => {
    const t = await cashin(portal.db, shop);
    const asViewer = await viewerClient.get(`/payments/${t.id}`);
    expect(asViewer.status).toBe(200);
    expect(asViewer.text).toContain('Historique');
    expect(asViewer.text).not.toContain('id="refund-form"');
    expect((await client.get(`/payments/${t.id}`)).text).toContain('id="refund-form"');
  });
});
