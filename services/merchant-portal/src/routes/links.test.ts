/**
 * Payment links in the portal: the list (newest first, status filter, keyset pages), a link's page with
 * its address, QR code and payments, the create form (the API's schema and createPaymentLink: its
 * refusals on the form, nothing written) and the deactivation, audited; creating and deactivating are
 * for links:manage, reading for everyone; another merchant's link is a 404 and stays as it was.
 */
import { insertPaymentLink, type NewPaymentLink, type PaymentLinkRecord } from '@mm/db/payment-links';
import type { TestClient } from '@mm/testing';
import { linkInput } from '@mm/testing/test-database';
import { cashin } from '../test-support/payment-seeds.js';
import { startPortalFixture, type PortalFixture, type PortalUser } from '../test-support/portal-fixture.js';
import { readSvgQr } from '../test-support/read-qr.js';

const GATEWAY = 'https://pay.example.test';

let portal: PortalFixture;
let shop: string;
let otherShop: string;
let finance: PortalUser;
let financeClient: TestClient;

beforeAll(async () => {
  portal = await startPortalFixture({ GATEWAY_PUBLIC_URL: `${GATEWAY}/` });
  shop = await portal.createMerchant('Boutique Awa');
  otherShop = await portal.createMerchant('Autre Boutique');
  finance = await portal.createUser(shop, 'finance');
  financeClient = await signedIn(finance);
  // Senegal closed: not offered, and refused if sent anyway.
  await portal.db.subsidiary.update({ where: { countryCode: 'SN' }, data: { active: false } });
});
afterAll(() => portal.stop());

async function signedIn(user: PortalUser, lang = 'en'): Promise<TestClient> {
  const client = portal.client({ 'accept-language': lang });
  await portal.signIn(client, user);
  return client;
}

/** A link written as the API writes it, created at the suite's clock (moved a second on after each). */
async function link(merchantId: string, o: Partial<NewPaymentLink> = {}): Promise<PaymentLinkRecord> {
  const at = new Date(portal.clock.now);
  portal.clock.now += 1000;
  return insertPaymentLink(portal.db, linkInput(merchantId, { amount: { kind: 'fixed', amount: 15_000 }, ...o }), at);
}

const FORM = {
  description: 'Cotisation annuelle',
  country_code: 'CI',
  amount_kind: 'fixed',
  amount: '15 000',
  min_amount: '',
  max_amount: '',
  max_payments: '',
  expires_at: '',
  redirect_url: '',
};

/** What nothing-written means: the merchant's links as they were, and no audit row of a link. */
async function snapshot(merchantId: string) {
  return {
    links: (await portal.db.paymentLink.findMany({ where: { merchantId }, orderBy: { id: 'asc' } })).map((l) => [
      l.id,
      l.deactivatedAt?.toISOString() ?? null,
      l.updatedAt.toISOString(),
    ]),
    audits: await portal.db.auditEntry.count({ where: { merchantId, action: { startsWith: 'portal.payment_link.' } } }),
  };
}

/** The empty form's one-time key. */
async function formKey(client: TestClient): Promise<string> {
  const page = await client.get('/links/new');
  return /<input type="hidden" name="form_key" value="([0-9a-f-]{36})">/.exec(page.text)![1]!;
}

/** The form sent as the page sends it, with its key unless the test gives one. */
async function create(client: TestClient, form: Record<string, string>) {
  return client.post('/links', { form_key: await formKey(client), ...form });
}

const idOf = (location: string | null) => /^\/links\/([0-9a-f-]{36})\?created=1$/.exec(location ?? '')?.[1];

/** A download with the client's session cookie, as bytes. */
async function download(client: TestClient, path: string) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${portal.url}${path}`, { headers: { cookie } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('who may do what', () => {
  it.each(['developer', 'viewer'] as const)(
    'a %s reads the links and their pages, and can neither create nor deactivate one',
    async (role) => {
      const l = await link(shop);
      const client = await signedIn(await portal.createUser(shop, role));
      const list = await client.get('/links');
      expect(list.status).toBe(200);
      expect(list.text).toContain('data-nav="links" aria-current="page"');
      expect(list.text).toContain(`data-link-id="${l.id}"`);
      expect(list.text).not.toContain('href="/links/new"');
      const page = await client.get(`/links/${l.id}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('id="deactivate-form"');
      expect((await download(client, `/links/${l.id}/qr.png`)).status).toBe(200);

      const before = await snapshot(shop);
      expect((await client.get('/links/new')).status).toBe(403);
      expect((await client.post('/links', FORM)).status).toBe(403);
      expect((await client.post(`/links/${l.id}/deactivate`)).status).toBe(403);
      expect(await snapshot(shop)).toEqual(before);
    },
  );
});

describe('creating a link', () => {
  it('a fixed amount: the API’s link, audited, shown with its address and QR code', async () => {
    const res = await create(financeClient, FORM);
    expect(res.status).toBe(303);
    const id = idOf(res.location)!;
    const stored = await portal.db.paymentLink.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({
      merchantId: shop,
      description: 'Cotisation annuelle',
      countryCode: 'CI',
      currency: 'XOF',
      amount: 15_000n,
      minAmount: null,
      maxAmount: null,
      reusable: false,
      maxPayments: 1,
      expiresAt: null,
      redirectUrl: null,
      deactivatedAt: null,
    });
    const audit = await portal.db.auditEntry.findFirstOrThrow({
      where: { action: 'portal.payment_link.created', targetId: id },
    });
    expect(audit).toMatchObject({
      merchantId: shop,
      merchantUserId: finance.id,
      actor: finance.email,
      targetType: 'payment_link',
      staffId: null,
    });
    expect(audit.after).toMatchObject({ description: 'Cotisation annuelle', amount: 15_000, status: 'ACTIVE' });

    const page = await financeClient.get(res.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="link-notice"');
    const url = `${GATEWAY}/l/${stored.slug}`;
    expect(page.text).toContain(`<code id="link-url">${url}</code>`);
    expect(page.text).toContain(`<a href="${url}" id="open-link"`);
    // The inline QR code is what a camera reads as the link's address.
    expect(readSvgQr(page.text)).toBe(url);
    expect(page.text).toContain(`href="/links/${id}/qr.png" download`);
    expect(page.text).toContain(`href="/links/${id}/qr.svg" download`);
    expect(page.text).toContain('<span class="badge ok" data-status="ACTIVE">Active</span>');
    expect(page.text).toMatch(/data-field="amount">Fixed amount: 15\u202f000 XOF/);
    expect(page.text).toContain('id="deactivate-form"');
    expect(page.text).toContain('id="no-link-payments"');
  });

  it('an open amount, reusable with a cap, an expiry and a redirect', async () => {
    const res = await create(financeClient, {
      ...FORM,
      description: '  Don libre  ',
      amount_kind: 'range',
      amount: '999',
      min_amount: '500',
      max_amount: '50 000',
      reusable: '1',
      max_payments: '100',
      expires_at: '2099-12-31T23:59',
      redirect_url: 'https://boutique.example/merci',
    });
    expect(res.status).toBe(303);
    const stored = await portal.db.paymentLink.findUniqueOrThrow({ where: { id: idOf(res.location)! } });
    expect(stored).toMatchObject({
      description: 'Don libre',
      amount: null,
      minAmount: 500n,
      maxAmount: 50_000n,
      reusable: true,
      maxPayments: 100,
      expiresAt: new Date('2099-12-31T23:59:00Z'),
      redirectUrl: 'https://boutique.example/merci',
    });
  });

  it.each([
    ['a blank description', { description: '   ' }, 400, 'Type a description'],
    ['a description too long', { description: 'x'.repeat(256) }, 400, 'Type a description'],
    ['no amount', { amount: '' }, 400, 'Type the amount'],
    ['an amount that is not whole', { amount: '12.5' }, 400, 'Type the amount'],
    [
      'bounds the wrong way round',
      { amount_kind: 'range', min_amount: '5000', max_amount: '500' },
      400,
      'at least the lowest',
    ],
    ['a bound missing', { amount_kind: 'range', min_amount: '500' }, 400, 'Type the highest amount'],
    ['a cap on a single-use link', { max_payments: '3' }, 400, 'The payment limit'],
    ['an expiry in the past', { expires_at: '2001-01-01T00:00' }, 400, 'in the future'],
    ['an address that is not http(s)', { redirect_url: 'javascript:alert(1)' }, 400, 'starting with http'],
    ['an amount below the service’s bounds', { amount: '50' }, 422, 'between 100 and 5000000 francs'],
    ['a country closed', { country_code: 'SN' }, 422, 'Choose one of the countries'],
    ['a country unknown', { country_code: 'ZZ' }, 422, 'Choose one of the countries'],
    ['no country', { country_code: '' }, 400, 'Choose one of the countries'],
    ['an unknown amount form', { amount_kind: 'other' }, 400, 'could not be read'],
  ])('%s: the form again with the reason, nothing written', async (_what, change, status, message) => {
    const before = await snapshot(shop);
    const res = await create(financeClient, { ...FORM, ...change });
    expect(res.status).toBe(status);
    expect(res.text).toContain('id="link-errors"');
    expect(res.text).toContain(message);
    expect(res.text).toContain('id="link-form"');
    expect(await snapshot(shop)).toEqual(before);
  });

  it('one form sent twice (a double click, a reload) makes one link, and one audit row', async () => {
    const key = await formKey(financeClient);
    const form = { ...FORM, description: `Double clic ${Date.now()}`, form_key: key };
    const [a, b] = await Promise.all([financeClient.post('/links', form), financeClient.post('/links', form)]);
    const again = await financeClient.post('/links', form);
    for (const res of [a, b, again]) expect(res.status).toBe(303);
    const made = await portal.db.paymentLink.findMany({ where: { description: form.description } });
    expect(made).toHaveLength(1);
    expect(made[0]!.idempotencyKey).toBe(`portal:${key}`);
    expect(new Set([a, b, again].map((r) => idOf(r.location)))).toEqual(new Set([made[0]!.id]));
    expect(
      await portal.db.auditEntry.count({ where: { action: 'portal.payment_link.created', targetId: made[0]!.id } }),
    ).toBe(1);
  });

  it('a form that made its link, changed and sent again, is refused (409) and offered anew with a key of its own', async () => {
    const key = await formKey(financeClient);
    expect((await financeClient.post('/links', { ...FORM, form_key: key })).status).toBe(303);
    const before = await snapshot(shop);
    const changed = await financeClient.post('/links', { ...FORM, amount: '20000', form_key: key });
    expect(changed.status).toBe(409);
    expect(changed.text).toContain('This form already made a link');
    expect(changed.text).toContain('value="20000"');
    const fresh = /name="form_key" value="([0-9a-f-]{36})"/.exec(changed.text)![1]!;
    expect(fresh).not.toBe(key);
    expect(await snapshot(shop)).toEqual(before);
    expect((await financeClient.post('/links', { ...FORM, amount: '20000', form_key: fresh })).status).toBe(303);
  });

  it('a form without its key is not read, and writes nothing', async () => {
    const before = await snapshot(shop);
    for (const key of ['', 'not-a-key']) {
      const res = await financeClient.post('/links', { ...FORM, form_key: key });
      expect(res.status).toBe(400);
      expect(res.text).toContain('could not be read');
    }
    expect(await snapshot(shop)).toEqual(before);
  });

  it('keeps what was typed, and offers only the countries open', async () => {
    const res = await create(financeClient, { ...FORM, description: 'Sac <b>', amount: 'abc', redirect_url: 'nope' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('value="Sac &lt;b&gt;"');
    expect(res.text).toContain('name="amount" inputmode="numeric" maxlength="32" value="abc" aria-invalid="true"');
    expect(res.text).toContain('<option value="CI" selected>');
    expect(res.text).toContain('<option value="CM">');
    expect(res.text).not.toContain('<option value="SN"');
  });

  it('in French', async () => {
    const fr = await signedIn(finance, 'fr');
    const form = await fr.get('/links/new');
    expect(form.text).toContain('Créer un lien de paiement');
    const res = await create(fr, { ...FORM, amount: '' });
    expect(res.text).toContain('Le lien n’a pas été créé');
    expect(res.text).toContain('Saisissez le montant');
  });
});

describe('the list', () => {
  let merchant: string;
  let client: TestClient;
  const made: PaymentLinkRecord[] = [];

  beforeAll(async () => {
    merchant = await portal.createMerchant('Grande Boutique');
    client = await signedIn(await portal.createUser(merchant, 'viewer'));
    // 52 links, one a minute: two pages of 50; a few of them deactivated, one paid.
    for (let i = 0; i < 52; i++) made.push(await link(merchant, { description: `Article ${i}` }));
    for (const l of made.slice(0, 3))
      await portal.db.paymentLink.update({ where: { id: l.id }, data: { deactivatedAt: new Date(portal.clock.now) } });
    await cashin(portal.db, merchant, { paymentLinkId: made[10]!.id, amount: 15_000 });
    await link(otherShop, { description: 'Not theirs' });
  });

  const rowIds = (text: string) => [...text.matchAll(/data-link-id="([0-9a-f-]{36})"/g)].map((r) => r[1]);

  it('is newest first, 50 a page, then the older ones', async () => {
    const newest = [...made].reverse().map((l) => l.id);
    const first = await client.get('/links');
    expect(rowIds(first.text)).toEqual(newest.slice(0, 50));
    expect(first.text).not.toContain('Not theirs');
    const older = /id="older-page" href="([^"]+)"/.exec(first.text)?.[1];
    expect(older).toBe(`/links?after=${newest[49]}`);
    const second = await client.get(older!.replace(/&amp;/g, '&'));
    expect(rowIds(second.text)).toEqual(newest.slice(50));
    expect(second.text).not.toContain('id="older-page"');
    expect(second.text).toContain('id="newest-page" href="/links"');
  });

  it('shows each link’s terms, status, payments and total', async () => {
    const page = await client.get('/links');
    const row = new RegExp(`<tr data-link-id="${made[10]!.id}">[\\s\\S]*?</tr>`).exec(page.text)![0];
    expect(row).toContain('>Article 10</a>');
    expect(row).toContain('15\u202f000 XOF');
    expect(row).toContain('data-status="COMPLETED"');
    expect(row).toContain('<span data-paid="1">1 succeeded</span>');
    expect(row).toContain('data-collected="15000"');
  });

  it('filters by status in the address, and refuses a status it does not know', async () => {
    const inactive = await client.get('/links?status=INACTIVE');
    expect(rowIds(inactive.text).sort()).toEqual(
      made
        .slice(0, 3)
        .map((l) => l.id)
        .sort(),
    );
    expect(inactive.text).toContain('<option value="INACTIVE" selected>');
    const completed = await client.get('/links?status=COMPLETED');
    expect(rowIds(completed.text)).toEqual([made[10]!.id]);
    const expired = await client.get('/links?status=EXPIRED');
    expect(expired.text).toContain('id="no-links"');
    const bad = await client.get('/links?status=DELETED');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="links-error"');
    expect(rowIds(bad.text)).toEqual([]);
    expect((await client.get('/links?after=not-an-id')).status).toBe(400);
  });
});

describe('a link’s page', () => {
  it('lists its payments, newest first, each linked to its payment page, with the totals', async () => {
    const l = await link(shop, { reusable: true, maxPayments: null });
    const paid = await cashin(portal.db, shop, { paymentLinkId: l.id, amount: 15_000 });
    const pending = await cashin(portal.db, shop, { paymentLinkId: l.id, amount: 15_000 }, 'PENDING');
    await cashin(portal.db, shop, { amount: 15_000 });
    const page = await financeClient.get(`/links/${l.id}`);
    const ids = [...page.text.matchAll(/<tr data-payment-id="([0-9a-f-]{36})">/g)].map((r) => r[1]);
    expect(ids).toEqual([pending.id, paid.id]);
    expect(page.text).toContain(`<a href="/payments/${paid.id}">`);
    expect(page.text).toContain('+22507******01');
    expect(page.text).toMatch(
      /data-field="payments"><span data-paid="1">1 succeeded<\/span> · <span data-in-progress="1">/,
    );
    expect(page.text).toMatch(/data-field="collected">15\u202f000 XOF/);
    // The payment's page is the ordinary one.
    expect((await financeClient.get(`/payments/${paid.id}`)).status).toBe(200);

    // Every payment of the link, in the Payments list filtered on it (its other filters still apply).
    const all = /id="all-link-payments" href="([^"]+)"/.exec(page.text)?.[1];
    expect(all).toBe(`/payments?link=${l.id}`);
    const list = await financeClient.get(all!);
    expect(list.status).toBe(200);
    expect(list.text).toContain('id="link-filter"');
    expect(list.text).toContain(`<input type="hidden" name="link" value="${l.id}">`);
    const listed = [...list.text.matchAll(/<tr data-payment-id="([0-9a-f-]{36})">/g)].map((r) => r[1]);
    expect(listed).toEqual([pending.id, paid.id]);
    const succeeded = await financeClient.get(`${all}&status=SUCCESS`);
    expect([...succeeded.text.matchAll(/<tr data-payment-id="([0-9a-f-]{36})">/g)].map((r) => r[1])).toEqual([paid.id]);
    // Another merchant's link finds none of its payments; a damaged id runs no search.
    const theirs = await link(otherShop);
    expect((await financeClient.get(`/payments?link=${theirs.id}`)).text).toContain('id="no-results"');
    const bad = await financeClient.get('/payments?link=nope');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('The payment link in the address is damaged');
  });

  it('downloads its QR code as PNG and SVG files from the portal itself', async () => {
    const l = await link(shop);
    const png = await download(financeClient, `/links/${l.id}/qr.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toBe(`attachment; filename=payment-link-${l.slug}.png`);
    expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const svg = await download(financeClient, `/links/${l.id}/qr.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(svg.headers.get('content-disposition')).toBe(`attachment; filename=payment-link-${l.slug}.svg`);
    expect(readSvgQr(svg.bytes.toString('utf8'))).toBe(`${GATEWAY}/l/${l.slug}`);
  });

  it('answers 404 for a malformed, an unknown and another merchant’s id', async () => {
    const theirs = await link(otherShop);
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000', theirs.id]) {
      expect((await financeClient.get(`/links/${id}`)).status).toBe(404);
      expect((await download(financeClient, `/links/${id}/qr.png`)).status).toBe(404);
      expect((await download(financeClient, `/links/${id}/qr.svg`)).status).toBe(404);
    }
  });
});

describe('deactivating a link', () => {
  it('stops it at once, audited once however often it is sent', async () => {
    const l = await link(shop);
    await financeClient.get(`/links/${l.id}`);
    const res = await financeClient.post(`/links/${l.id}/deactivate`);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/links/${l.id}?deactivated=1`);
    const stored = await portal.db.paymentLink.findUniqueOrThrow({ where: { id: l.id } });
    expect(stored.deactivatedAt).toEqual(new Date(portal.clock.now));
    const page = await financeClient.get(res.location!);
    expect(page.text).toContain('data-status="INACTIVE"');
    expect(page.text).not.toContain('id="deactivate-form"');
    // Sent again (a second tab): the first time stays, no second audit row.
    portal.clock.now += 1000;
    expect((await financeClient.post(`/links/${l.id}/deactivate`)).status).toBe(303);
    expect((await portal.db.paymentLink.findUniqueOrThrow({ where: { id: l.id } })).deactivatedAt).toEqual(
      stored.deactivatedAt,
    );
    const audits = await portal.db.auditEntry.findMany({
      where: { action: 'portal.payment_link.deactivated', targetId: l.id },
    });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ merchantId: shop, merchantUserId: finance.id, targetType: 'payment_link' });
    expect(audits[0]!.before).toEqual({ status: 'ACTIVE' });
    expect(audits[0]!.after).toMatchObject({ status: 'INACTIVE' });
  });

  it('another merchant’s link: 404, and it stays active with no audit row', async () => {
    const theirs = await link(otherShop);
    const before = await snapshot(otherShop);
    await financeClient.get('/links');
    const res = await financeClient.post(`/links/${theirs.id}/deactivate`);
    expect(res.status).toBe(404);
    expect(await snapshot(otherShop)).toEqual(before);
    expect((await portal.db.paymentLink.findUniqueOrThrow({ where: { id: theirs.id } })).deactivatedAt).toBeNull();
  });

  it('is refused without the form’s token', async () => {
    const l = await link(shop);
    const res = await financeClient.post(`/links/${l.id}/deactivate`, { _csrf: null });
    expect(res.status).toBe(403);
    expect((await portal.db.paymentLink.findUniqueOrThrow({ where: { id: l.id } })).deactivatedAt).toBeNull();
  });
});
