/**
 * Cash-outs from the portal: requestCashout as POST /v1/payments/cashout runs it (the amount held from the
 * balance, sent at once or waiting for our approval), behind cashouts:request and a fresh two-factor code,
 * once per form however often it is sent, audited, and refused with the use case's own reasons.
 */
import { randomUUID } from 'node:crypto';
import { balancesOf } from '@mm/db/ledger';
import { upsertOperatorAccount } from '@mm/db/operator-accounts';
import { rejectCashout } from '@mm/db/payments';
import type { TestClient } from '@mm/testing';
import { cashin, cashout } from '../test-support/payment-seeds.js';
import { startPortalFixture, type PortalFixture, type PortalUser } from '../test-support/portal-fixture.js';

let portal: PortalFixture;
let shop: string;
let otherShop: string;
let owner: PortalUser;
let finance: PortalUser;
let ownerClient: TestClient;

const RECIPIENT = '+2250707000042';

beforeAll(async () => {
  // A low threshold: both outcomes (sent at once, waiting for approval) with small amounts.
  portal = await startPortalFixture({ DISBURSEMENT_ENABLED: 'true', CASHOUT_APPROVAL_THRESHOLD: '5000' });
  shop = await portal.createMerchant('Boutique Awa');
  otherShop = await portal.createMerchant('Autre Boutique');
  owner = await portal.createUser(shop, 'owner');
  finance = await portal.createUser(shop, 'finance');
  ownerClient = portal.client({ 'accept-language': 'en' });
  await portal.signIn(ownerClient, owner);
  // The balance the cash-outs draw on, in Côte d'Ivoire.
  await cashin(portal.db, shop, { amount: 100_000 });
  await cashin(portal.db, otherShop, { amount: 100_000 });
});
afterAll(() => portal.stop());

const cashoutsOf = (merchantId: string) =>
  portal.db.transaction.findMany({ where: { merchantId, type: 'CASHOUT' }, orderBy: { createdAt: 'asc' } });
const available = async (merchantId: string, country = 'CI') =>
  (await balancesOf(portal.db, merchantId)).find((b) => b.countryCode === country)!.available;
const requestedAudits = (merchantId: string) =>
  portal.db.auditEntry.count({ where: { action: 'portal.cashout.requested', merchantId } });

/** What nothing-written means: the same cash-outs, the same balance, no audit of a request. */
async function snapshot(merchantId: string) {
  return {
    cashouts: (await cashoutsOf(merchantId)).map((t) => [t.id, t.status, t.updatedAt.toISOString()]),
    available: await available(merchantId),
    audits: await requestedAudits(merchantId),
  };
}

async function formKey(client: TestClient): Promise<string> {
  const page = await client.get('/cashouts');
  const key = /name="idempotency_key" value="([0-9a-f-]{36})"/.exec(page.text)?.[1];
  if (!key) throw new Error(`no cash-out form on /cashouts (${page.status})`);
  return key;
}

/** Sends the form with the user's current code, then moves the clock past it (each code counts once). */
async function request(
  client: TestClient,
  user: PortalUser,
  form: { beneficiary?: string; amount?: string; reason?: string; operator?: string; key?: string; code?: string } = {},
) {
  const key = form.key ?? (await formKey(client));
  const res = await client.post('/cashouts', {
    idempotency_key: key,
    beneficiary_msisdn: form.beneficiary ?? RECIPIENT,
    amount: form.amount ?? '1000',
    reason: form.reason ?? '',
    operator: form.operator ?? '',
    code: form.code ?? portal.codeOf(user),
  });
  portal.clock.now += 30_000;
  return res;
}

describe('the cash-out page', () => {
  it('is for owners, admins and finance: developers and viewers get 403 and can write nothing', async () => {
    const financeClient = portal.client({ 'accept-language': 'en' });
    await portal.signIn(financeClient, finance);
    const page = await financeClient.get('/cashouts');
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="cashout-form"');
    expect(page.text).toContain('href="/cashouts"');

    for (const role of ['developer', 'viewer'] as const) {
      const user = await portal.createUser(shop, role);
      const client = portal.client({ 'accept-language': 'en' });
      await portal.signIn(client, user);
      const home = await client.get('/');
      expect(home.text).not.toContain('href="/cashouts"');
      expect((await client.get('/cashouts')).status).toBe(403);
      const before = await snapshot(shop);
      const res = await client.post('/cashouts', {
        idempotency_key: randomUUID(),
        beneficiary_msisdn: RECIPIENT,
        amount: '1000',
        code: portal.codeOf(user),
      });
      portal.clock.now += 30_000;
      expect(res.status).toBe(403);
      expect(await snapshot(shop)).toEqual(before);
    }
  });

  it('shows the balances it draws on, in French too', async () => {
    const fr = portal.client({ 'accept-language': 'fr' });
    await portal.signIn(fr, finance);
    const page = await fr.get('/cashouts');
    expect(page.text).toContain('Demander un décaissement');
    expect(page.text).toMatch(/<tr data-country="CI">.*data-available="\d+"/);
  });
});

describe('a cash-out request', () => {
  it('below the threshold: the API cash-out (CREATED, amount held), audited, shown', async () => {
    const before = await available(shop);
    const res = await request(ownerClient, owner, { amount: '1 500', reason: 'fournisseur' });
    expect(res.status).toBe(303);
    const made = (await cashoutsOf(shop)).at(-1)!;
    expect(made).toMatchObject({
      status: 'CREATED',
      amount: 1500n,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: RECIPIENT,
      motif: 'fournisseur',
      operator: 'SIMULATOR',
    });
    expect(made.merchantOrderId).toMatch(/^portal:[0-9a-f-]{36}$/);
    expect(res.location).toBe(`/cashouts/${made.id}?requested=1`);
    // The reservation: the available balance is lower by the amount at once.
    expect(await available(shop)).toBe(before - 1500n);
    const audit = await portal.db.auditEntry.findFirst({
      where: { action: 'portal.cashout.requested', targetId: made.id },
    });
    expect(audit).toMatchObject({
      merchantId: shop,
      merchantUserId: owner.id,
      actor: owner.email,
      targetType: 'transaction',
    });
    expect(audit!.after).toMatchObject({ amount: 1500, status: 'CREATED', reason: 'fournisseur', country_code: 'CI' });

    const detail = await ownerClient.get(res.location!);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('id="cashout-notice"');
    expect(detail.text).toContain('Cash-out requested.');
    expect(detail.text).not.toContain('id="awaiting-approval"');
    expect(detail.text).toContain(`href="/payments/${made.id}"`);
    expect(detail.text).toContain('+22507******42');
  });

  it('at the threshold: AWAITING_APPROVAL, said in words in the list and on its page', async () => {
    const before = await available(shop);
    const res = await request(ownerClient, owner, { amount: '5000' });
    expect(res.status).toBe(303);
    const made = (await cashoutsOf(shop)).at(-1)!;
    expect(made).toMatchObject({ status: 'AWAITING_APPROVAL', amount: 5000n });
    expect(await available(shop)).toBe(before - 5000n);

    const list = await ownerClient.get('/cashouts');
    const row = new RegExp(`<tr data-cashout-id="${made.id}">[\\s\\S]*?</tr>`).exec(list.text)?.[0] ?? '';
    expect(row).toContain('data-awaiting-approval>Waiting for our approval');
    const detail = await ownerClient.get(`/cashouts/${made.id}`);
    expect(detail.text).toContain('id="awaiting-approval"');
    expect(detail.text).toContain('waits for our team’s approval');

    const fr = portal.client({ 'accept-language': 'fr' });
    await portal.signIn(fr, finance);
    expect((await fr.get('/cashouts')).text).toContain('En attente de notre validation');
  });

  it.each([
    ['a number that is not one', { beneficiary: 'abc' }, 400, 'Enter the whole recipient number'],
    ['a number too long for the API', { beneficiary: '+225' + '0'.repeat(20) }, 400, 'Enter the whole recipient'],
    ['a number of a country we do not serve', { beneficiary: '+33612345678' }, 422, 'a country where we operate'],
    ['an amount that is not a number', { amount: '12abc' }, 400, 'The amount is a whole number of francs'],
    ['an amount of 0', { amount: '0' }, 400, 'The amount is a whole number of francs'],
    ['no amount', { amount: '' }, 400, 'The amount is a whole number of francs'],
    ['an amount below AMOUNT_MIN', { amount: '50' }, 422, 'The amount must be between 100 and 5000000 francs.'],
    ['more than the balance', { amount: '4000000' }, 409, 'cannot cover the cash-out'],
    ['an operator with no account there', { operator: 'MOOV' }, 422, 'No operator we work with'],
    ['an unknown operator', { operator: 'NOPE' }, 400, 'Unknown operator.'],
    ['a reason too long', { reason: 'x'.repeat(256) }, 400, 'The reason is at most 255 characters.'],
  ])('refuses %s (%#) with the page shape, writing nothing', async (_what, form, status, message) => {
    const before = await snapshot(shop);
    const res = await request(ownerClient, owner, form);
    expect(res.status).toBe(status);
    expect(res.text).toContain('id="cashout-error"');
    expect(res.text).toContain(message);
    // The form comes back as it was sent, with its key.
    expect(res.text).toContain('id="cashout-form"');
    expect(await snapshot(shop)).toEqual(before);
  });

  it('refuses an operator that cannot take payments now (503), writing nothing', async () => {
    await upsertOperatorAccount(portal.db, {
      countryCode: 'SN',
      operator: 'SIMULATOR',
      api: 'simulator',
      prefixes: ['+221'],
      enabled: false,
    });
    const before = await snapshot(shop);
    const res = await request(ownerClient, owner, { beneficiary: '+221771234567' });
    expect(res.status).toBe(503);
    expect(res.text).toContain('cannot take payments right now');
    expect(await snapshot(shop)).toEqual(before);
  });

  it('words a refusal in French', async () => {
    const fr = portal.client({ 'accept-language': 'fr' });
    await portal.signIn(fr, finance);
    const before = await snapshot(shop);
    const res = await request(fr, finance, { amount: '4000000' });
    expect(res.status).toBe(409);
    expect(res.text).toContain('ne couvre pas le décaissement');
    expect(await snapshot(shop)).toEqual(before);
  });

  it('a wrong code: 401 and nothing written; without two-factor: 403', async () => {
    const before = await snapshot(shop);
    const wrong = portal.codeOf(owner) === '000000' ? '111111' : '000000';
    const res = await request(ownerClient, owner, { code: wrong });
    expect(res.status).toBe(401);
    expect(res.text).toContain('This code is not valid.');
    expect(await snapshot(shop)).toEqual(before);
    expect(
      await portal.db.auditEntry.count({ where: { action: 'portal.step_up_failed', merchantUserId: owner.id } }),
    ).toBeGreaterThan(0);

    const noTwoFactor = await portal.createUser(shop, 'finance', { twoFactor: false });
    const c = portal.client({ 'accept-language': 'en' });
    await portal.signIn(c, noTwoFactor);
    const refused = await request(c, noTwoFactor, { code: '123456' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('set up two-factor sign-in in &quot;My account&quot; first');
    expect(await snapshot(shop)).toEqual(before);
  });

  it('one form sent twice makes one cash-out, with the same code or a new one', async () => {
    const before = await cashoutsOf(shop);
    const key = await formKey(ownerClient);
    const form = { idempotency_key: key, beneficiary_msisdn: RECIPIENT, amount: '700', code: portal.codeOf(owner) };
    const first = await ownerClient.post('/cashouts', form);
    const second = await ownerClient.post('/cashouts', form);
    portal.clock.now += 30_000;
    const made = (await cashoutsOf(shop)).slice(before.length);
    expect(made).toHaveLength(1);
    expect(first.location).toBe(`/cashouts/${made[0]!.id}?requested=1`);
    expect(second.status).toBe(303);
    expect(second.location).toBe(`/cashouts/${made[0]!.id}?again=1`);
    // Later, the back button and a fresh code, even other values: still that one cash-out.
    const later = await request(ownerClient, owner, { key, amount: '900' });
    expect(later.location).toBe(`/cashouts/${made[0]!.id}?again=1`);
    expect((await ownerClient.get(later.location!)).text).toContain('This form was already sent');
    expect(await cashoutsOf(shop)).toHaveLength(before.length + 1);
    expect(
      await portal.db.auditEntry.count({ where: { action: 'portal.cashout.requested', targetId: made[0]!.id } }),
    ).toBe(1);
  });
});

describe('one form raced in twice', () => {
  it('makes one cash-out: the other copy shows it, or is refused for its code already used', async () => {
    const before = await cashoutsOf(shop);
    const key = await formKey(ownerClient);
    const form = { idempotency_key: key, beneficiary_msisdn: RECIPIENT, amount: '600', code: portal.codeOf(owner) };
    const answers = await Promise.all([ownerClient.post('/cashouts', form), ownerClient.post('/cashouts', form)]);
    portal.clock.now += 30_000;
    const made = (await cashoutsOf(shop)).slice(before.length);
    expect(made).toHaveLength(1);
    expect(answers.map((a) => a.status).sort()).toEqual(expect.arrayContaining([303]));
    for (const a of answers) expect([303, 401]).toContain(a.status);
    expect(answers.filter((a) => a.location === `/cashouts/${made[0]!.id}?requested=1`)).toHaveLength(1);
    expect(
      await portal.db.auditEntry.count({ where: { action: 'portal.cashout.requested', targetId: made[0]!.id } }),
    ).toBe(1);
  });
});

describe('the cash-out list and one cash-out', () => {
  it('lists only cash-outs, newest first, filtered from the URL (a type in it is not read)', async () => {
    const a = await cashout(portal.db, shop, 300);
    const b = await cashout(portal.db, shop, 400);
    const page = await ownerClient.get('/cashouts?type=CASHIN&status=CREATED');
    expect(page.status).toBe(200);
    const ids = [...page.text.matchAll(/data-cashout-id="([0-9a-f-]{36})"/g)].map((x) => x[1]);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(ids.indexOf(a.id)).toBeGreaterThanOrEqual(0);
    const all = await portal.db.transaction.findMany({ where: { id: { in: ids as string[] } } });
    expect(all.every((t) => t.type === 'CASHOUT' && t.status === 'CREATED' && t.merchantId === shop)).toBe(true);

    const waiting = await ownerClient.get('/cashouts?status=AWAITING_APPROVAL');
    expect(waiting.text).toContain('data-awaiting-approval');
    expect(waiting.text).not.toContain(`data-cashout-id="${a.id}"`);

    const bad = await ownerClient.get('/cashouts?country=Côte&from=2024-13-01');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="search-errors"');
    expect(bad.text).toContain('The country is a two-letter code.');
  });

  it('pages newest first, 50 at a time, keeping the filters in the links', async () => {
    const merchant = await portal.createMerchant('Grande Boutique');
    await cashin(portal.db, merchant, { amount: 100_000 });
    const user = await portal.createUser(merchant, 'finance');
    const client = portal.client({ 'accept-language': 'en' });
    await portal.signIn(client, user);
    const made: string[] = [];
    for (let i = 0; i < 53; i++) made.push((await cashout(portal.db, merchant, 100)).id);
    const newestFirst = (
      await portal.db.transaction.findMany({
        where: { merchantId: merchant, type: 'CASHOUT' },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      })
    ).map((t) => t.id);
    const idsOf = (text: string) => [...text.matchAll(/data-cashout-id="([0-9a-f-]{36})"/g)].map((x) => x[1]);

    const first = await client.get('/cashouts?status=CREATED&country=CI');
    expect(idsOf(first.text)).toEqual(newestFirst.slice(0, 50));
    const older = /id="older-page" href="([^"]+)"/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    expect(older).toMatch(/^\/cashouts\?status=CREATED&country=CI&after=/);
    const second = await client.get(older);
    expect(idsOf(second.text)).toEqual(newestFirst.slice(50));
    expect(second.text).toContain('No older cash-outs.');
    expect(second.text).toContain('id="newest-page" href="/cashouts?status=CREATED&amp;country=CI"');
    expect(new Set(newestFirst)).toEqual(new Set(made));
  });

  it('shows a cash-out we declined as declined, with our reason, its amount released', async () => {
    const before = await available(shop);
    const res = await request(ownerClient, owner, { amount: '6000' });
    const id = /\/cashouts\/([0-9a-f-]{36})/.exec(res.location!)![1]!;
    expect(await available(shop)).toBe(before - 6000n);
    // The back-office's move when an approver declines it (decideCashout, services/backoffice routes/cashouts.ts).
    await portal.db.$transaction((tx) =>
      rejectCashout(tx, { transactionId: id, decidedBy: 'approver@mm.test', reason: 'Bénéficiaire inconnu' }),
    );
    const page = await ownerClient.get(`/cashouts/${id}`);
    expect(page.text).toContain('data-declined>Declined by us');
    expect(page.text).toContain('Bénéficiaire inconnu');
    expect(page.text).not.toContain('id="awaiting-approval"');
    expect(await available(shop)).toBe(before);
  });

  it("answers 404 for another merchant's cash-out, a cash-in, an unknown and a malformed id, changing nothing", async () => {
    const theirs = await cashout(portal.db, otherShop, 800);
    const ownCashin = await cashin(portal.db, shop);
    const before = { theirs: await snapshot(otherShop), mine: await snapshot(shop) };
    for (const id of [theirs.id, ownCashin.id, randomUUID(), 'not-a-uuid']) {
      const res = await ownerClient.get(`/cashouts/${id}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('id="error-message"');
      expect(res.text).not.toContain('id="cashout-fields"');
    }
    expect({ theirs: await snapshot(otherShop), mine: await snapshot(shop) }).toEqual(before);
  });
});

describe('disbursement turned off (DISBURSEMENT_ENABLED=false, the default)', () => {
  let off: PortalFixture;
  let offShop: string;
  let offOwner: PortalUser;
  let client: TestClient;

  beforeAll(async () => {
    off = await startPortalFixture();
    offShop = await off.createMerchant('Sans Décaissement');
    offOwner = await off.createUser(offShop, 'owner');
    await cashin(off.db, offShop, { amount: 100_000 });
    client = off.client({ 'accept-language': 'en' });
    await off.signIn(client, offOwner);
  });
  afterAll(() => off.stop());

  it('shows why there is no form, and refuses a POST (501) without spending the code, writing nothing', async () => {
    const page = await client.get('/cashouts');
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="cashouts-disabled"');
    expect(page.text).toContain('Cash-outs are not turned on for this service');
    expect(page.text).not.toContain('id="cashout-form"');

    const code = off.codeOf(offOwner);
    const res = await client.post('/cashouts', {
      idempotency_key: randomUUID(),
      beneficiary_msisdn: RECIPIENT,
      amount: '1000',
      code,
    });
    expect(res.status).toBe(501);
    expect(res.text).toContain('nothing was requested');
    expect(await off.db.transaction.count({ where: { merchantId: offShop, type: 'CASHOUT' } })).toBe(0);
    const audited = await off.db.auditEntry.count({
      where: { merchantId: offShop, action: { in: ['portal.cashout.requested', 'portal.step_up_failed'] } },
    });
    expect(audited).toBe(0);
  });
});
