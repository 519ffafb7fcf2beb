/**
 * The home page over HTTP: the balances, then the last 30 UTC days of cash-ins as SVG charts drawn on the
 * server (titled, described, no script) with the same figures in tables, failures by reason and the share by
 * operator, in English and French, each merchant seeing its own payments only.
 */
import type { TestClient } from '@mm/testing';
import { cashin } from '../test-support/payment-seeds.js';
import { startPortalFixture, type PortalFixture } from '../test-support/portal-fixture.js';

let portal: PortalFixture;
let shop: string;
let en: TestClient;
let fr: TestClient;
let today: string;
let threeDaysAgo: string;

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The row of a table (tr with `attr`), its cells' text. */
const rowOf = (page: string, attr: string) => {
  const row = new RegExp(`<tr ${attr}[^>]*>(.*?)</tr>`, 's').exec(page)?.[1];
  return row ? [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((c) => c[1]!.replace(/<[^>]+>/g, '')) : null;
};

beforeAll(async () => {
  portal = await startPortalFixture();
  shop = await portal.createMerchant('Boutique Awa');
  const other = await portal.createMerchant('Autre Boutique');
  const owner = await portal.createUser(shop, 'owner');
  const viewer = await portal.createUser(shop, 'viewer', { twoFactor: false });
  en = portal.client({ 'accept-language': 'en' });
  await portal.signIn(en, owner);
  fr = portal.client({ 'accept-language': 'fr' });
  await portal.signIn(fr, viewer);
  today = dayOf(portal.clock.now);
  threeDaysAgo = dayOf(portal.clock.now - 3 * DAY_MS);

  await cashin(portal.db, shop, { amount: 12_000, operator: 'ORANGE' });
  await cashin(portal.db, shop, { amount: 3_000, operator: 'MTN' });
  await cashin(portal.db, shop, { amount: 500, operator: 'MTN' }, 'FAILED');
  await cashin(portal.db, shop, { amount: 800, operator: 'MTN' }, 'PENDING');
  await cashin(portal.db, shop, {
    amount: 7_000,
    currency: 'XAF',
    countryCode: 'CM',
    msisdn: '+237670000001',
    operator: 'MTN',
  });
  // Today by the suite's clock, whatever the hour the suite runs at.
  await portal.db.transaction.updateMany({
    where: { merchantId: shop },
    data: { createdAt: new Date(portal.clock.now - 1000) },
  });
  const old = await cashin(portal.db, shop, { amount: 2_500, operator: 'ORANGE' });
  await portal.db.transaction.update({
    where: { id: old.id },
    data: { createdAt: new Date(portal.clock.now - 3 * DAY_MS) },
  });
  // Another merchant's payment, and one of ours before the window: in no figure.
  await cashin(portal.db, other, { amount: 99_000, operator: 'ORANGE' });
  const before = await cashin(portal.db, shop, { amount: 88_000, operator: 'ORANGE' });
  await portal.db.transaction.update({
    where: { id: before.id },
    data: { createdAt: new Date(portal.clock.now - 31 * DAY_MS) },
  });
});
afterAll(() => portal.stop());

describe('the home page', () => {
  it('draws the collected amount per currency, the count and the success rate per day as titled, described SVG', async () => {
    const page = await en.get('/');
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/<script/i);
    for (const id of ['chart-collected-XOF', 'chart-collected-XAF', 'chart-count', 'chart-rate']) {
      expect(page.text).toMatch(
        new RegExp(
          `<svg class="chart" id="${id}" viewBox="0 0 360 \\d+" role="img" aria-labelledby="${id}-title ${id}-desc"`,
        ),
      );
      expect(page.text).toContain(`<title id="${id}-title">`);
      expect(page.text).toContain(`<desc id="${id}-desc">`);
    }
    expect(page.text).toContain('<title id="chart-collected-XOF-title">Collected per day (XOF)</title>');
    // 15 000 today + 2 500 three days ago, in whole francs grouped by a narrow no-break space.
    expect(page.text).toMatch(
      /<desc id="chart-collected-XOF-desc">[^<]*Highest day: 15\u202f000 XOF\. Total: 17\u202f500 XOF\./,
    );
    expect(page.text).toMatch(/<desc id="chart-rate-desc">[^<]*Over the 30 days: 80%\./);
    // One bar per day of the window (30), each with its own title.
    const collected = /<svg class="chart" id="chart-collected-XOF".*?<\/svg>/s.exec(page.text)![0];
    expect(collected.match(/<rect class="bar"/g)).toHaveLength(30);
  });

  it('gives the same figures in a table, days without payments at zero, the pending payment outside the rate', async () => {
    const page = await en.get('/');
    // Day, succeeded, failed or expired, in progress, rate, XAF, XOF.
    expect(rowOf(page.text, `data-day="${today}"`)).toEqual([
      today,
      '3',
      '1',
      '1',
      '75%',
      '7\u202f000 XAF',
      '15\u202f000 XOF',
    ]);
    expect(rowOf(page.text, `data-day="${threeDaysAgo}"`)).toEqual([
      threeDaysAgo,
      '1',
      '0',
      '0',
      '100%',
      '0 XAF',
      '2\u202f500 XOF',
    ]);
    expect(rowOf(page.text, `data-day="${dayOf(portal.clock.now - DAY_MS)}"`)).toEqual([
      dayOf(portal.clock.now - DAY_MS),
      '0',
      '0',
      '0',
      '—',
      '0 XAF',
      '0 XOF',
    ]);
    expect(page.text.match(/<tr data-day="\d{4}-\d{2}-\d{2}"/g)).toHaveLength(30);
    expect(rowOf(page.text, 'data-day="total"')).toEqual([
      'Total',
      '4',
      '1',
      '1',
      '80%',
      '7\u202f000 XAF',
      '17\u202f500 XOF',
    ]);
  });

  it('counts failures by reason with their label, and shares the successful payments by operator', async () => {
    const page = await en.get('/');
    expect(rowOf(page.text, 'data-code="INSUFFICIENT_BALANCE"')).toEqual([
      'The customer’s balance was too low',
      'INSUFFICIENT_BALANCE',
      '1',
      '100%',
    ]);
    expect(rowOf(page.text, 'data-operator="ORANGE" data-currency="XOF"')).toEqual([
      'ORANGE',
      '2',
      '50%',
      '14\u202f500 XOF',
    ]);
    expect(rowOf(page.text, 'data-operator="MTN" data-currency="XOF"')).toEqual(['MTN', '1', '25%', '3\u202f000 XOF']);
    expect(rowOf(page.text, 'data-operator="MTN" data-currency="XAF"')).toEqual(['MTN', '1', '25%', '7\u202f000 XAF']);
    expect(page.text).toContain('id="chart-failures"');
    expect(page.text).toContain('id="chart-operators"');
  });

  it('speaks French, percentages and labels included, to a viewer', async () => {
    const page = await fr.get('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title id="chart-collected-XOF-title">Encaissé par jour (XOF)</title>');
    expect(rowOf(page.text, 'data-day="total"')).toEqual([
      'Total',
      '4',
      '1',
      '1',
      '80\u202f%',
      '7\u202f000 XAF',
      '17\u202f500 XOF',
    ]);
    expect(rowOf(page.text, 'data-code="INSUFFICIENT_BALANCE"')![0]).toBe('Solde du client insuffisant');
    expect(page.text).toContain('Répartition par opérateur');
  });

  it('says so when the merchant has no payment in the window', async () => {
    const empty = await portal.createMerchant('Nouvelle Boutique');
    const client = portal.client({ 'accept-language': 'en' });
    await portal.signIn(client, await portal.createUser(empty, 'viewer', { twoFactor: false }));
    const page = await client.get('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="no-activity"');
    expect(page.text).not.toContain('<svg');
  });
});
