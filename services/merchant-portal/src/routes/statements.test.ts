/**
 * The Statements area over HTTP: the monthly statement per subsidiary from the ledger (default: last month),
 * and the download, streamed, byte for byte the document the API's export writes for the same merchant and
 * range; bad dates give the page's errors and nothing is streamed.
 */
import { text } from 'node:stream/consumers';
import { csvLayout, EXPORT_COLUMNS, ExportBody, jsonLayout } from '@mm/collections';
import { balancesOf, verifyLedger } from '@mm/db/ledger';
import {
  completeRefund,
  createExportPool,
  createRefund,
  streamTransactionExport,
  transition,
  type ExportPool,
} from '@mm/db/payments';
import type { TestClient } from '@mm/testing';
import { cashin, cashout } from '../test-support/payment-seeds.js';
import { startPortalFixture, type PortalFixture } from '../test-support/portal-fixture.js';
import { lastMonth } from './statements-forms.js';

let portal: PortalFixture;
let pool: ExportPool;
let shop: string;
let other: string;
let finance: TestClient;
let fr: TestClient;
let month: string;
let before: string;
let thisMonth: string;

/** Runs `work` and dates at `when` the journal entries it wrote and the payments it created. */
async function at<T>(when: string, work: () => Promise<T>): Promise<T> {
  const [last] = await portal.db.$queryRaw<{ id: bigint }[]>`SELECT coalesce(max(id), 0) AS id FROM journal_entries`;
  const result = await work();
  await portal.db.$executeRaw`
    UPDATE transactions SET created_at = ${new Date(when)}
     WHERE id IN (SELECT transaction_id FROM journal_entries
                   WHERE id > ${last!.id} AND posting IN ('CASHIN_PENDING', 'CASHOUT_RESERVED'))`;
  await portal.db.$executeRaw`UPDATE journal_entries SET created_at = ${new Date(when)} WHERE id > ${last!.id}`;
  return result;
}

const refund = async (transactionId: string, amount: number) =>
  (
    await createRefund(portal.db, {
      merchantId: shop,
      transactionId,
      amount,
      reason: null,
      idempotencyKey: null,
      requestFingerprint: `r-${transactionId}-${amount}`,
    })
  ).refund.id;

/** A country's statement: its caption, then opening, collected, refunded, paid out, closing. */
const rowOf = (page: string, country: string) => {
  const table = new RegExp(`<div class="statement" data-country="${country}"><table>(.*?)</table>`, 's').exec(
    page,
  )?.[1];
  if (!table) return null;
  const caption = /<caption>(.*?)<\/caption>/s.exec(table)![1]!;
  return [caption, ...[...table.matchAll(/<td>(.*?)<\/td>/gs)].map((c) => c[1]!)];
};

/** What the API's export writes for `merchantId` and the range: the shared stream and document. */
async function apiBytes(merchantId: string, from: string, to: string, format: 'csv' | 'json') {
  const rows = streamTransactionExport(pool, {
    merchantId,
    from: new Date(`${from}T00:00:00Z`),
    until: new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000),
  });
  const body = new ExportBody(format === 'csv' ? csvLayout() : jsonLayout({ date_from: from, date_to: to }));
  rows.pipe(body);
  return text(body);
}

beforeAll(async () => {
  portal = await startPortalFixture();
  pool = createExportPool({ databaseUrl: portal.databaseUrl, max: 2 });
  shop = await portal.createMerchant('Boutique Awa');
  other = await portal.createMerchant('Autre Boutique');
  finance = portal.client({ 'accept-language': 'en' });
  await portal.signIn(finance, await portal.createUser(shop, 'finance'));
  fr = portal.client({ 'accept-language': 'fr' });
  await portal.signIn(fr, await portal.createUser(shop, 'admin'));

  const now = new Date(portal.clock.now);
  month = lastMonth(now);
  before = lastMonth(new Date(`${month}-01T00:00:00Z`));
  thisMonth = now.toISOString().slice(0, 7);

  // The month before: 10 000 XOF and 4 000 XAF collected.
  const first = await at(`${before}-15T10:00:00Z`, () => cashin(portal.db, shop, { amount: 10_000 }));
  await at(`${before}-15T11:00:00Z`, () =>
    cashin(portal.db, shop, { amount: 4_000, currency: 'XAF', countryCode: 'CM', msisdn: '+237670000001' }),
  );
  // Last month, from its first instant: 6 000 collected, 1 500 refunded, 2 000 paid out in CI.
  await at(`${month}-01T00:00:00.000Z`, () => cashin(portal.db, shop, { amount: 6_000 }));
  const r = await at(`${month}-05T10:00:00Z`, () => refund(first.id, 1_500));
  await at(`${month}-06T10:00:00Z`, () =>
    portal.db.$transaction((tx) => completeRefund(tx, r, { status: 'SUCCESS', providerRefundId: 'RF' })),
  );
  await at(`${month}-10T10:00:00Z`, async () => {
    const out = await cashout(portal.db, shop, 2_000);
    await portal.db.$transaction((tx) => transition(tx, { transactionId: out.id, to: 'INITIATED', cause: 'test' }));
    await portal.db.$transaction((tx) =>
      transition(tx, { transactionId: out.id, to: 'SUCCESS', cause: 'test', patch: { providerState: 'OK' } }),
    );
  });
  // A payment not captured yet (not on the statement), whose order id a spreadsheet would read as a formula.
  await at(`${month}-20T10:00:00Z`, () =>
    cashin(portal.db, shop, { amount: 900, merchantOrderId: '=SUM(A1),"x"' }, 'CREATED'),
  );
  // This month's first instant: after last month's end.
  await at(`${thisMonth}-01T00:00:00.000Z`, () => cashin(portal.db, shop, { amount: 700 }));
  await at(`${month}-12T10:00:00Z`, () => cashin(portal.db, other, { amount: 55_000 }));
});
afterAll(async () => {
  await pool.end();
  await portal.stop();
});

describe('the monthly statement', () => {
  it("shows last month by default, per subsidiary, from the ledger's postings", async () => {
    const page = await finance.get('/statements');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`id="s-month" name="month" type="month" value="${month}"`);
    expect(page.text).toContain('data-nav="statements" aria-current="page"');
    // Country, opening, collected, refunded, paid out, closing.
    expect(rowOf(page.text, 'CI')!.slice(1)).toEqual(
      ['10\u202f000', '6\u202f000', '1\u202f500', '2\u202f000', '12\u202f500'].map((v) => `${v} XOF`),
    );
    expect(rowOf(page.text, 'CM')!.slice(1)).toEqual(
      ['4\u202f000', '0', '0', '0', '4\u202f000'].map((v) => `${v} XAF`),
    );
    expect(page.text).not.toContain('id="under-way"');
    // The export form offers the same month.
    expect(page.text).toContain(`name="from" type="date" value="${month}-01"`);
  });

  it('adds up (opening + collected − refunded − paid out = closing) and closes this month on the balances the ledger holds', async () => {
    expect((await verifyLedger(portal.db)).problems).toEqual([]);
    const page = await finance.get(`/statements?month=${thisMonth}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="under-way"');
    const ci = rowOf(page.text, 'CI')!;
    expect(ci.slice(1)).toEqual(['12\u202f500', '700', '0', '0', '13\u202f200'].map((v) => `${v} XOF`));
    // The closing balance now: available + reserved (nothing reserved is left here), as the ledger has it.
    const balances = await balancesOf(portal.db, shop);
    expect(ci[5]).toBe(
      `${balances
        .find((b) => b.countryCode === 'CI')!
        .available.toString()
        .replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')} XOF`,
    );
  });

  it('speaks French', async () => {
    const page = await fr.get(`/statements?month=${month}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Solde d&#39;ouverture');
    expect(page.text).toMatch(/Relevé de [a-zéû]+ \d{4}/);
  });

  it.each([
    ['2026-13', 'The month is written YYYY-MM.'],
    ['nov', 'The month is written YYYY-MM.'],
    ['2999-01', 'This month has not started yet.'],
  ])('refuses the month %s with the page error, and shows no statement', async (value, message) => {
    const page = await finance.get(`/statements?month=${value}`);
    expect(page.status).toBe(400);
    expect(page.text).toContain(`<p class="error" id="month-error" role="alert">${message}</p>`);
    expect(page.text).not.toContain('id="statement"');
  });
});

describe('the download', () => {
  it("streams the API's CSV for the same merchant and range, byte for byte, as an attachment", async () => {
    const from = `${before}-01`;
    const to = `${thisMonth}-01`;
    const res = await finance.get(`/statements/export?from=${from}&to=${to}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="transactions_${from}_${to}.csv"`);
    // Streamed: no length known in advance.
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.text).toBe(await apiBytes(shop, from, to, 'csv'));
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(','));
    // 5 cash-ins and a cash-out of the shop, nothing of the other merchant; the formula neutralised and quoted.
    expect(lines.filter((l) => l !== '')).toHaveLength(1 + 6);
    expect(res.text).toContain(`"'=SUM(A1),""x"""`);
    expect(res.text).not.toContain('55000');
  });

  it("streams the API's JSON, byte for byte, its meta naming the range", async () => {
    const from = `${month}-01`;
    const to = `${month}-28`;
    const res = await finance.get(`/statements/export?from=${from}&to=${to}&format=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(await apiBytes(shop, from, to, 'json'));
    const doc = JSON.parse(res.text) as { data: unknown[]; meta: unknown };
    expect(doc.meta).toEqual({ count: 3, date_from: from, date_to: to });
  });

  it.each([
    ['from=2026-02-30&to=2026-03-01&format=csv', '"From" is not a date (YYYY-MM-DD).'],
    ['from=2026-03-01&to=&format=csv', '"To" is not a date (YYYY-MM-DD).'],
    ['from=2026-03-02&to=2026-03-01&format=csv', '"From" is after "To".'],
    ['from=2025-01-01&to=2026-01-02&format=csv', 'The range is at most 366 days, both included.'],
    ['from=2026-03-01&to=2026-03-02&format=xlsx', 'The format is CSV or JSON.'],
    ['from=2026-03-01&from=2026-03-02&to=2026-03-03', 'A field of the form was given more than once.'],
  ])('refuses %s with the page error, and streams nothing', async (query, message) => {
    const res = await finance.get(`/statements/export?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.text).toContain('<div class="error" id="export-errors" role="alert"><p>The export was not started:</p>');
    expect(res.text).toContain(`<li>${message.replace(/"/g, '&quot;')}</li>`);
    expect(res.text).not.toContain('transaction_id');
  });
});
