import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { waitFor } from '@mm/testing';
import { anotherMerchant } from './support/contract.js';
import { startSystem, type System } from './support/system.js';

// jsqr is CommonJS with a default export: under ESM the module itself is the function.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

/**
 * Payment links end to end (docs/payment-links.md): created with the signed API, paid from the
 * customer's page through the simulator, each payment an ordinary cash-in carrying payment_link_id in
 * its status read, its webhook and its export row; a closed link answers a page saying why.
 */
let sys: System;
let seq = 0;

// Every submission of this suite comes from 127.0.0.1: the per-address limit is out of the way, the
// per-link one low enough to reach (link-submit-limit.test.ts tests both against Redis).
const PER_LINK = 6;

beforeAll(async () => {
  // The operator answers after 1.5 s: a first customer's payment is still in progress when a second comes.
  sys = await startSystem({
    outcomeDelayMs: 1500,
    gatewayEnv: { LINK_SUBMIT_PER_LINK_PER_MIN: String(PER_LINK), LINK_SUBMIT_PER_ADDRESS_PER_MIN: '1000' },
  });
});
afterAll(async () => {
  await sys.stop();
});

type Link = Record<string, unknown> & { payment_link_id: string; url: string; status: string };

async function createLink(extra: Record<string, unknown> = {}): Promise<Link> {
  const res = await sys.api('POST', '/api/v1/payment-links', {
    description: `Robe wax ${++seq}`,
    country_code: 'CI',
    amount: 5000,
    ...extra,
  });
  expect(res.status).toBe(201);
  return (res.body as { data: Link }).data;
}
/** The link's page on this gateway (PUBLIC_BASE_URL, what `url` holds, is not where the suite's gateway listens). */
const pageOf = (link: Link) => `${sys.gatewayUrl}${new URL(link.url).pathname}`;
let shift = 0;
/** A deactivation signed at a second of its own: `{}` bodies signed in the same second are one request to the replay guard. */
const deactivate = (id: string, body: Record<string, unknown>) =>
  sys.api('POST', `/api/v1/payment-links/${id}/deactivate`, body, {
    timestamp: String(Math.floor(Date.now() / 1000) - (++shift % 200)),
  });
const linkCount = async () =>
  (await sys.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM payment_links`)[0]!.n;
const plain = (html: string) => html.replace(/\u00a0/g, ' ');

/** The page's own form, as the browser posts it (same origin). */
function submit(link: Link, fields: Record<string, string>, lang = 'fr') {
  return fetch(pageOf(link), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Sec-Fetch-Site': 'same-origin',
      'Accept-Language': lang,
    },
    body: new URLSearchParams(fields).toString(),
  });
}
const transactionOf = (res: Response) => /^\/pay\/([0-9a-f-]{36})$/.exec(res.headers.get('location') ?? '')?.[1];
const readLink = async (id: string) =>
  ((await sys.api('GET', `/api/v1/payment-links/${id}`)).body as { data: Link }).data;

describe('payment links: the API', () => {
  it('creates a single-use link with its url, QR codes and state, reads it back and lists it', async () => {
    const link = await createLink({
      redirect_url: 'https://boutique.example/merci',
      metadata: { sku: 'RW-M-042' },
      expires_at: '2030-01-01T00:00:00Z',
    });
    expect(link).toMatchObject({
      status: 'ACTIVE',
      country_code: 'CI',
      currency: 'XOF',
      amount: 5000,
      min_amount: null,
      max_amount: null,
      reusable: false,
      max_payments: 1,
      expires_at: '2030-01-01T00:00:00.000Z',
      redirect_url: 'https://boutique.example/merci',
      metadata: { sku: 'RW-M-042' },
      payments: { succeeded: 0, in_progress: 0, collected_amount: 0 },
      deactivated_at: null,
    });
    expect(link.url).toMatch(/^http:\/\/pay\.example\.test\/l\/[A-Za-z0-9_-]{22}$/);
    expect(link.qr_code).toEqual({ png: `${link.url}/qr.png`, svg: `${link.url}/qr.svg` });
    expect(await readLink(link.payment_link_id)).toEqual(link);
    const list = await sys.api('GET', '/api/v1/payment-links?status=ACTIVE&limit=100');
    expect(list.status).toBe(200);
    expect((list.body as { data: Link[] }).data.map((l) => l.payment_link_id)).toContain(link.payment_link_id);
  });

  it('pages the list newest first with starting_after', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createLink({ reusable: true }));
    const first = await sys.api('GET', '/api/v1/payment-links?limit=2');
    const page1 = first.body as { data: Link[]; has_more: boolean };
    expect(page1.data.map((l) => l.payment_link_id)).toEqual([made[2]!.payment_link_id, made[1]!.payment_link_id]);
    expect(page1.has_more).toBe(true);
    const second = await sys.api('GET', `/api/v1/payment-links?limit=2&starting_after=${made[1]!.payment_link_id}`);
    expect((second.body as { data: Link[] }).data[0]!.payment_link_id).toBe(made[0]!.payment_link_id);
  });

  it.each([
    ['both an amount and bounds', { amount: 5000, min_amount: 100, max_amount: 900 }, 400, 'amount'],
    ['bounds out of order', { amount: undefined, min_amount: 900, max_amount: 100 }, 400, 'max_amount'],
    ['a cap on a single-use link', { max_payments: 3 }, 400, 'max_payments'],
    ['an expiry in the past', { expires_at: '2020-01-01T00:00:00Z' }, 400, 'expires_at'],
    ['a date without a time', { expires_at: '2030-01-01' }, 400, 'expires_at'],
    ['an unknown field', { colour: 'red' }, 400, 'colour'],
    ['a blank description', { description: '   ' }, 400, 'description'],
    ['a redirect that is not http(s)', { redirect_url: 'javascript:alert(1)' }, 400, 'redirect_url'],
    ['an amount past the limits', { amount: 999_999_999 }, 422, null],
    ['a country that is no subsidiary', { country_code: 'FR' }, 422, null],
  ])('refuses %s in the documented shape and writes nothing', async (_what, extra, status, field) => {
    const before = await linkCount();
    const res = await sys.api('POST', '/api/v1/payment-links', {
      description: `Refused ${++seq}`,
      country_code: 'CI',
      amount: 5000,
      ...extra,
    });
    expect(res.status).toBe(status);
    const error = (res.body as { error: { code: string; details?: { field: string }[] } }).error;
    expect(error.code).toBe(
      status === 400
        ? 'VALIDATION_ERROR'
        : field === null && 'country_code' in extra
          ? 'COUNTRY_NOT_SUPPORTED'
          : 'AMOUNT_OUT_OF_RANGE',
    );
    if (field) expect(error.details?.map((d) => d.field)).toContain(field);
    expect(await linkCount()).toBe(before);
  });

  it('answers 404 alike for an unknown id and a malformed one', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await sys.api('GET', `/api/v1/payment-links/${id}`)).status).toBe(404);
      expect((await deactivate(id, {})).status).toBe(404);
    }
  });

  it('deactivates: INACTIVE at once, the same again; its page says so and takes no payment', async () => {
    const link = await createLink({ reusable: true });
    const res = await deactivate(link.payment_link_id, { payment_link_id: link.payment_link_id });
    expect(res.status).toBe(200);
    const off = (res.body as { data: Link }).data;
    expect(off.status).toBe('INACTIVE');
    expect(off.deactivated_at).toEqual(expect.any(String));
    const again = await deactivate(link.payment_link_id, {});
    expect((again.body as { data: Link }).data.deactivated_at).toBe(off.deactivated_at);
    const wrong = await deactivate(link.payment_link_id, { payment_link_id: '00000000-0000-4000-8000-000000000000' });
    expect(wrong.status).toBe(400);

    const page = await fetch(pageOf(link));
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('data-reason="INACTIVE"');
    const posted = await submit(link, { msisdn: '0707000001' });
    expect(posted.status).toBe(410);
    const [count] = await sys.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM transactions WHERE payment_link_id = ${link.payment_link_id}::uuid`;
    expect(count!.n).toBe(0);
  });
});

describe('payment links: Idempotency-Key', () => {
  const body = () => ({ description: `Pagne ${++seq}`, country_code: 'CI', amount: 7500, reusable: true });
  /** Signed at a second of its own, as a retry is: the same signed request twice is REQUEST_REPLAYED. */
  const create = (b: Record<string, unknown>, key: string) =>
    sys.api('POST', '/api/v1/payment-links', b, {
      timestamp: String(Math.floor(Date.now() / 1000) - (++shift % 200)),
      extraHeaders: { 'Idempotency-Key': key },
    });
  const keyed = async (key: string) =>
    (
      await sys.db.$queryRaw<{ id: string }[]>`SELECT id::text FROM payment_links
        WHERE merchant_id = ${sys.merchant.id}::uuid AND idempotency_key = ${key}`
    ).map((r) => r.id);

  it('the same key and body answer 200 with the link the first made, in its state now; nothing new is written', async () => {
    const key = `link-${++seq}`;
    const b = body();
    const first = await create(b, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const made = (first.body as { data: Link }).data;
    await deactivate(made.payment_link_id, { payment_link_id: made.payment_link_id });
    const before = await linkCount();
    // The keys of the body in another order are the same request.
    const again = await create(Object.fromEntries(Object.entries(b).reverse()), key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((again.body as { data: Link }).data).toMatchObject({
      payment_link_id: made.payment_link_id,
      status: 'INACTIVE',
    });
    expect(await linkCount()).toBe(before);
    expect(await keyed(key)).toEqual([made.payment_link_id]);
  });

  it('the same key with another body is 409 IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
    const key = `link-${++seq}`;
    const b = body();
    expect((await create(b, key)).status).toBe(201);
    const before = await linkCount();
    const other = await create({ ...b, amount: 8000 }, key);
    expect(other.status).toBe(409);
    expect((other.body as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await linkCount()).toBe(before);
  });

  it('ten requests with one key at the same moment make one link, and all answer it', async () => {
    const key = `link-${++seq}`;
    const b = body();
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(b, key)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((a) => (a.body as { data: Link }).data.payment_link_id));
    expect(ids.size).toBe(1);
    expect(await keyed(key)).toEqual([...ids]);
  });

  it('a key is the merchant’s own: another merchant’s same key makes its own link', async () => {
    const key = `link-${++seq}`;
    const b = body();
    const mine = (await create(b, key)).body as { data: Link };
    const other = await anotherMerchant(sys, 'Boutique Idempotente');
    const theirs = await other.api('POST', '/api/v1/payment-links', b, { extraHeaders: { 'Idempotency-Key': key } });
    expect(theirs.status).toBe(201);
    expect((theirs.body as { data: Link }).data.payment_link_id).not.toBe(mine.data.payment_link_id);
  });

  it.each([
    ['empty', ''],
    ['with a space', 'my key'],
    ['over 255 characters', 'k'.repeat(256)],
  ])('refuses a key %s (400 naming Idempotency-Key) and writes nothing', async (_what, key) => {
    const before = await linkCount();
    const res = await create(body(), key);
    expect(res.status).toBe(400);
    const error = (res.body as { error: { code: string; details?: { field: string }[] } }).error;
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details?.map((d) => d.field)).toEqual(['Idempotency-Key']);
    expect(await linkCount()).toBe(before);
  });
});

describe("payment links: the customer's page", () => {
  it('shows the merchant, the description, the amount and the number field with the prefix, in French and English', async () => {
    const link = await createLink({ description: 'Frais de scolarité T1' });
    const fr = await fetch(pageOf(link));
    expect(fr.status).toBe(200);
    const csp = fr.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(fr.headers.get('cache-control')).toBe('no-store');
    const html = plain(await fr.text());
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('Boutique Test');
    expect(html).toContain('Frais de scolarité T1');
    expect(html).toContain('5 000 F CFA');
    expect(html).toContain('value="+225 "');
    expect(html).toContain('Votre numéro mobile money');
    const en = plain(await (await fetch(pageOf(link), { headers: { 'Accept-Language': 'en' } })).text());
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('Your mobile money number');
  });

  it('a payment through the page is a cash-in carrying payment_link_id: status read, webhook, export, link totals', async () => {
    const link = await createLink({ redirect_url: 'https://boutique.example/merci', metadata: { sku: 'X1' } });
    const res = await submit(link, { msisdn: '07 07 00 00 01' });
    expect(res.status).toBe(303);
    const id = transactionOf(res)!;
    expect(id).toBeDefined();

    const status = await waitFor(
      async () => {
        const r = await sys.api('GET', `/api/v1/payments/${id}`);
        const data = (r.body as { data: Record<string, unknown> }).data;
        return data.status === 'SUCCESS' ? data : undefined;
      },
      { what: 'the link payment SUCCESS', timeoutMs: 20_000 },
    );
    expect(status).toMatchObject({ amount: 5000, currency: 'XOF', payment_link_id: link.payment_link_id });
    expect(status.merchant_order_id).toMatch(/^link-/);
    const [row] = await sys.db.$queryRaw<{ motif: string; metadata: unknown; returnUrl: string; msisdn: string }[]>`
      SELECT motif, metadata, return_url AS "returnUrl", msisdn FROM transactions WHERE id = ${id}::uuid`;
    expect(row).toEqual({
      motif: link.description,
      metadata: { sku: 'X1' },
      returnUrl: 'https://boutique.example/merci',
      msisdn: '+2250707000001',
    });

    const hook = await waitFor(
      () => sys.receiver.received.find((w) => w.body.transaction_id === id && w.body.status === 'SUCCESS'),
      { what: 'the SUCCESS webhook', timeoutMs: 20_000 },
    );
    expect(hook.body.payment_link_id).toBe(link.payment_link_id);
    expect(hook.rawBody).toContain(`"payment_link_id":"${link.payment_link_id}"`);

    const day = new Date().toISOString().slice(0, 10);
    const exported = await sys.api('GET', `/api/v1/transactions/export?date_from=${day}&date_to=${day}&format=json`);
    const mine = (exported.body as { data: Record<string, unknown>[] }).data.find((r) => r.transaction_id === id);
    expect(mine?.payment_link_id).toBe(link.payment_link_id);

    const after = await readLink(link.payment_link_id);
    expect(after.status).toBe('COMPLETED');
    expect(after.payments).toEqual({ succeeded: 1, in_progress: 0, collected_amount: 5000 });
    const closed = await fetch(pageOf(link));
    expect(closed.status).toBe(410);
    expect(await closed.text()).toContain('data-reason="COMPLETED"');
  });

  it('a single-use link in progress refuses a second customer before anything reaches an operator', async () => {
    const link = await createLink();
    const first = await submit(link, { msisdn: '0707000001' });
    expect(first.status).toBe(303);
    const second = await submit(link, { msisdn: '0707000002' }, 'en');
    expect(second.status).toBe(409);
    expect(await second.text()).toContain('This link is being paid');
    const rows = await sys.db.$queryRaw<{ msisdn: string }[]>`
      SELECT msisdn FROM transactions WHERE payment_link_id = ${link.payment_link_id}::uuid`;
    expect(rows.map((r) => r.msisdn)).toEqual(['+2250707000001']);
  });

  it('an open amount: refused outside its bounds with what was typed kept, taken within them', async () => {
    const link = await createLink({ amount: undefined, min_amount: 1000, max_amount: 20_000, reusable: true });
    const page = plain(await (await fetch(pageOf(link))).text());
    expect(page).toContain('Entre 1 000 F CFA et 20 000 F CFA');
    const refused = await submit(link, { msisdn: '0707000001', amount: '50000' });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain('id="link-error"');
    expect(html).toContain('value="50000"');
    expect(html).toContain('value="0707000001"');
    const taken = await submit(link, { msisdn: '0707000001', amount: '12 500' });
    expect(taken.status).toBe(303);
    const [row] = await sys.db.$queryRaw<{ amount: bigint }[]>`
      SELECT amount FROM transactions WHERE id = ${transactionOf(taken)!}::uuid`;
    expect(row!.amount).toBe(12_500n);
  });

  it('an expired link, an unknown slug and a malformed one answer pages, never a stack', async () => {
    const link = await createLink({ reusable: true });
    await sys.db.$executeRaw`UPDATE payment_links SET expires_at = now() - interval '1 second'
      WHERE id = ${link.payment_link_id}::uuid`;
    const expired = await fetch(pageOf(link));
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('data-reason="EXPIRED"');
    expect((await readLink(link.payment_link_id)).status).toBe('EXPIRED');
    for (const path of ['/l/AAAAAAAAAAAAAAAAAAAAAA', '/l/short', '/l/a.b', '/l/%E0%A4%A']) {
      const res = await fetch(`${sys.gatewayUrl}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('data-reason="NOT_FOUND"');
    }
  });

  it('refuses a form posted from another site (403), and writes nothing', async () => {
    const link = await createLink();
    const res = await fetch(pageOf(link), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'cross-site' },
      body: 'msisdn=0707000001',
    });
    expect(res.status).toBe(403);
    expect((await readLink(link.payment_link_id)).payments).toMatchObject({ in_progress: 0 });
  });

  it('limits submissions per link: past the limit, 429 with Retry-After and the form again', async () => {
    const link = await createLink({ reusable: true });
    for (let i = 0; i < PER_LINK; i++) expect((await submit(link, { msisdn: 'x' })).status).toBe(422);
    const limited = await submit(link, { msisdn: '0707000001' }, 'en');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain('Too many attempts');
    expect((await readLink(link.payment_link_id)).payments).toMatchObject({ in_progress: 0, succeeded: 0 });
  });
});

describe('payment links: QR codes', () => {
  it('serves PNG and SVG codes that hold the link address', async () => {
    const link = await createLink();
    const png = await fetch(`${pageOf(link)}/qr.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(decoded?.data).toBe(link.url);
    const svg = await fetch(`${pageOf(link)}/qr.svg`);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toMatch(/^<svg /);
    expect((await fetch(`${sys.gatewayUrl}/l/AAAAAAAAAAAAAAAAAAAAAA/qr.png`)).status).toBe(404);
    const slug = new URL(link.url).pathname.split('/')[2]!;
    const download = await fetch(`${pageOf(link)}/qr.svg?download=1`);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename=payment-link-${slug}.svg`);
    expect(png.headers.get('content-disposition')).toBeNull();
  });
});
