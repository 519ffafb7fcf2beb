/**
 * A refund from a payment's page: requestRefund as POST /v1/refunds runs it (a PENDING refund with its
 * amount reserved), behind refunds:create and a fresh two-factor code, once per form however often it
 * is sent, audited, and refused with the use case's own reasons.
 */
import { randomUUID } from 'node:crypto';
import type { TestClient } from '@mm/testing';
import { balancesOf } from '@mm/db/ledger';
import { cashin, cashout } from '../test-support/payment-seeds.js';
import { startPortalFixture, type PortalFixture, type PortalUser } from '../test-support/portal-fixture.js';

let portal: PortalFixture;
let shop: string;
let otherShop: string;
let owner: PortalUser;
let finance: PortalUser;
let viewer: PortalUser;
let ownerClient: TestClient;

beforeAll(async () => {
  portal = await startPortalFixture();
  shop = await portal.createMerchant('Boutique Awa');
  otherShop = await portal.createMerchant('Autre Boutique');
  owner = await portal.createUser(shop, 'owner');
  finance = await portal.createUser(shop, 'finance');
  viewer = await portal.createUser(shop, 'viewer');
  ownerClient = portal.client({ 'accept-language': 'en' });
  await portal.signIn(ownerClient, owner);
});
afterAll(() => portal.stop());

const refundsOf = (transactionId: string) =>
  portal.db.refund.findMany({ where: { transactionId }, orderBy: { createdAt: 'asc' } });

/** The page's refund form key (each rendering has its own). */
async function formKey(client: TestClient, transactionId: string): Promise<string> {
  const page = await client.get(`/payments/${transactionId}`);
  const key = /name="idempotency_key" value="([0-9a-f-]{36})"/.exec(page.text)?.[1];
  if (!key) throw new Error(`no refund form on /payments/${transactionId} (${page.status})`);
  return key;
}

/** Sends the form with the user's current code, then moves the clock past it (each code counts once). */
async function refund(
  client: TestClient,
  user: PortalUser,
  transactionId: string,
  form: { amount?: string; reason?: string; key?: string; code?: string } = {},
) {
  const key = form.key ?? (await formKey(client, transactionId));
  const res = await client.post(`/payments/${transactionId}/refund`, {
    idempotency_key: key,
    amount: form.amount ?? '',
    reason: form.reason ?? '',
    code: form.code ?? portal.codeOf(user),
  });
  portal.clock.now += 30_000;
  return res;
}

describe('a refund from the portal', () => {
  it('of the whole payment: a PENDING refund of its amount, reserved on the payment, audited', async () => {
    const t = await cashin(portal.db, shop, { amount: 2500 });
    const res = await refund(ownerClient, owner, t.id, { reason: 'client parti' });
    expect(res.status).toBe(303);
    const [made, ...more] = await refundsOf(t.id);
    expect(more).toEqual([]);
    expect(made).toMatchObject({ status: 'PENDING', amount: 2500n, reason: 'client parti', merchantId: shop });
    expect(made!.idempotencyKey).toMatch(/^portal:[0-9a-f-]{36}$/);
    expect(res.location).toBe(`/payments/${t.id}?refund=${made!.id}`);
    expect(await portal.db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      refundReservedAmount: 2500n,
      status: 'SUCCESS',
    });
    const audit = await portal.db.auditEntry.findFirst({
      where: { action: 'portal.refund.requested', targetId: made!.id },
    });
    expect(audit).toMatchObject({
      merchantId: shop,
      merchantUserId: owner.id,
      actor: owner.email,
      targetType: 'refund',
    });
    expect(audit!.after).toMatchObject({ transaction_id: t.id, amount: 2500, reason: 'client parti' });

    const page = await ownerClient.get(res.location!);
    expect(page.text).toContain('id="payment-notice"');
    expect(page.text).toContain(`<tr data-refund-id="${made!.id}">`);
    // Nothing left to refund: no form any more.
    expect(page.text).not.toContain('id="refund-form"');
  });

  it('in parts, and refuses a part beyond what is left with the use case reason, creating nothing', async () => {
    const t = await cashin(portal.db, shop, { amount: 1000 });
    expect((await refund(ownerClient, owner, t.id, { amount: '300' })).status).toBe(303);
    expect((await refund(ownerClient, owner, t.id, { amount: '600' })).status).toBe(303);
    const over = await refund(ownerClient, owner, t.id, { amount: '200' });
    expect(over.status).toBe(422);
    expect(over.text).toContain('Refunds would exceed the amount of the payment.');
    // The form comes back as it was sent.
    expect(over.text).toContain('id="refund-amount" name="amount" inputmode="numeric" value="200"');
    expect((await refundsOf(t.id)).map((r) => r.amount)).toEqual([300n, 600n]);
    expect((await portal.db.transaction.findUniqueOrThrow({ where: { id: t.id } })).refundReservedAmount).toBe(900n);
  });

  it('refuses a refund the balance cannot cover, and its audit row goes with it (one transaction)', async () => {
    const t = await cashin(portal.db, shop, { amount: 1000 });
    const available = (await balancesOf(portal.db, shop)).find((b) => b.countryCode === 'CI')!.available;
    // Paid out: the balance left cannot cover the refund.
    await cashout(portal.db, shop, Number(available));
    const audits = () => portal.db.auditEntry.count({ where: { action: 'portal.refund.requested' } });
    const before = await audits();
    const res = await refund(ownerClient, owner, t.id, { amount: '500' });
    expect(res.status).toBe(409);
    expect(res.text).toContain('id="refund-error"');
    expect(await refundsOf(t.id)).toEqual([]);
    expect(await audits()).toBe(before);
    expect((await portal.db.transaction.findUniqueOrThrow({ where: { id: t.id } })).refundReservedAmount).toBe(0n);
  });

  it('refuses a payment that is not SUCCESS (409) and a bad amount (400), creating nothing', async () => {
    const failed = await cashin(portal.db, shop, {}, 'FAILED');
    const key = randomUUID();
    const refused = await refund(ownerClient, owner, failed.id, { key });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Only a SUCCESS payment can be refunded; this one is FAILED.');
    const t = await cashin(portal.db, shop);
    for (const amount of ['abc', '-5', '0', '1.5', '99999999999999999999']) {
      const res = await refund(ownerClient, owner, t.id, { amount });
      expect(res.status).toBe(400);
      expect(res.text).toContain('The amount is a whole number of francs, above 0.');
    }
    const long = await refund(ownerClient, owner, t.id, { reason: 'x'.repeat(256) });
    expect(long.status).toBe(400);
    expect(long.text).toContain('The reason is at most 255 characters.');
    expect(await refundsOf(failed.id)).toEqual([]);
    expect(await refundsOf(t.id)).toEqual([]);
  });

  it('a wrong code: 401 and the form again, nothing created; no two-factor: 403', async () => {
    const t = await cashin(portal.db, shop);
    const wrong = portal.codeOf(owner) === '000000' ? '111111' : '000000';
    const res = await refund(ownerClient, owner, t.id, { code: wrong, amount: '100' });
    expect(res.status).toBe(401);
    expect(res.text).toContain('id="refund-error"');
    expect(res.text).toContain('This code is not valid.');
    expect(await refundsOf(t.id)).toEqual([]);
    expect(
      await portal.db.auditEntry.count({ where: { action: 'portal.step_up_failed', merchantUserId: owner.id } }),
    ).toBeGreaterThan(0);

    const noTwoFactor = await portal.createUser(shop, 'finance', { twoFactor: false });
    const c = portal.client({ 'accept-language': 'en' });
    await portal.signIn(c, noTwoFactor);
    const refused = await c.post(`/payments/${t.id}/refund`, { idempotency_key: randomUUID(), code: '123456' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('set up two-factor sign-in in &quot;My account&quot; first');
    expect(await refundsOf(t.id)).toEqual([]);
  });

  it('finance may refund; a viewer gets 403 and nothing is created', async () => {
    const t = await cashin(portal.db, shop);
    const financeClient = portal.client();
    await portal.signIn(financeClient, finance);
    expect((await refund(financeClient, finance, t.id, { amount: '100' })).status).toBe(303);

    const viewerClient = portal.client();
    await portal.signIn(viewerClient, viewer);
    await viewerClient.get(`/payments/${t.id}`);
    const res = await viewerClient.post(`/payments/${t.id}/refund`, {
      idempotency_key: randomUUID(),
      amount: '100',
      code: portal.codeOf(viewer),
    });
    expect(res.status).toBe(403);
    expect((await refundsOf(t.id)).map((r) => r.amount)).toEqual([100n]);
  });

  it('one form sent twice asks for one refund, with the same code or a new one', async () => {
    const t = await cashin(portal.db, shop, { amount: 1000 });
    const key = await formKey(ownerClient, t.id);
    const code = portal.codeOf(owner);
    const form = { idempotency_key: key, amount: '400', reason: '', code };
    const [first, second] = [
      await ownerClient.post(`/payments/${t.id}/refund`, form),
      await ownerClient.post(`/payments/${t.id}/refund`, form),
    ];
    portal.clock.now += 30_000;
    const [made, ...more] = await refundsOf(t.id);
    expect(more).toEqual([]);
    expect(first.location).toBe(`/payments/${t.id}?refund=${made!.id}`);
    expect(second.status).toBe(303);
    expect(second.location).toBe(`/payments/${t.id}?refund=${made!.id}&again=1`);
    // Later, the back button and a fresh code: still that one refund.
    const later = await refund(ownerClient, owner, t.id, { key, amount: '400' });
    expect(later.location).toBe(`/payments/${t.id}?refund=${made!.id}&again=1`);
    expect((await ownerClient.get(later.location!)).text).toContain('This form was already sent');
    expect(await refundsOf(t.id)).toHaveLength(1);
    expect(await portal.db.auditEntry.count({ where: { action: 'portal.refund.requested', targetId: made!.id } })).toBe(
      1,
    );
  });

  it("answers 404 for another merchant's payment, an unknown and a malformed id, changing nothing", async () => {
    const theirs = await cashin(portal.db, otherShop, { amount: 1000 });
    await ownerClient.get('/payments');
    for (const id of [theirs.id, randomUUID(), 'not-a-uuid']) {
      const res = await ownerClient.post(`/payments/${id}/refund`, {
        idempotency_key: randomUUID(),
        amount: '100',
        code: portal.codeOf(owner),
      });
      expect(res.status).toBe(404);
    }
    portal.clock.now += 30_000;
    expect(await refundsOf(theirs.id)).toEqual([]);
    expect(await portal.db.transaction.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      refundReservedAmount: 0n,
    });
    expect(
      await portal.db.auditEntry.count({ where: { action: 'portal.refund.requested', merchantId: otherShop } }),
    ).toBe(0);
  });
});
