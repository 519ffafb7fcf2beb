import {
  cashinInput,
  createMerchantTestDatabase,
  linkInput,
  type MerchantTestDatabase,
} from '@mm/testing/test-database';
import { createMerchant } from '../merchants/index.js';
import { createCashin } from '../payments/index.js';
import { insertPaymentLink, listLinkPayments, type PaymentLinkRecord } from './index.js';

/** listLinkPayments: a link's own payments for its page in the dashboard, newest first and bounded. */
let fixture: MerchantTestDatabase;
let other: string;
beforeAll(async () => {
  fixture = await createMerchantTestDatabase();
  other = (await createMerchant(fixture.db, { name: 'Other shop', webhookUrl: null })).id;
});
afterAll(async () => {
  await fixture.close();
});

const base = new Date('2031-05-01T08:00:00.000Z');
let orders = 0;

function link(merchantId: string): Promise<PaymentLinkRecord> {
  return insertPaymentLink(
    fixture.db,
    linkInput(merchantId, {
      description: 'Cotisation',
      amount: { kind: 'range', min: 100, max: 100_000 },
      reusable: true,
      maxPayments: null,
    }),
    base,
  );
}

/** A cash-in through `linkId` (none: an ordinary one), created `minute` minutes after base. */
async function pay(merchantId: string, linkId: string | null, minute: number, amount = 1000): Promise<string> {
  const r = await createCashin(
    fixture.db,
    cashinInput(merchantId, `lp-${++orders}`, { amount, ...(linkId ? { paymentLinkId: linkId } : {}) }),
  );
  if (r.kind !== 'created') throw new Error('cash-in not created');
  const at = new Date(base.getTime() + minute * 60_000);
  await fixture.db
    .$executeRaw`UPDATE transactions SET created_at = ${at}::timestamptz WHERE id = ${r.transaction.id}::uuid`;
  return r.transaction.id;
}

describe('listLinkPayments', () => {
  it("lists the link's payments of the merchant only, newest first, with what the page shows", async () => {
    const l = await link(fixture.merchantId);
    const ids = [await pay(fixture.merchantId, l.id, 1, 1500), await pay(fixture.merchantId, l.id, 3, 2500)];
    ids.push(await pay(fixture.merchantId, l.id, 2));
    // Not the link's: an ordinary cash-in, another link's payment, another merchant's row naming the link.
    await pay(fixture.merchantId, null, 4);
    await pay(fixture.merchantId, (await link(fixture.merchantId)).id, 5);
    const stray = await pay(other, (await link(other)).id, 6);
    await fixture.db.$executeRaw`UPDATE transactions SET payment_link_id = ${l.id}::uuid WHERE id = ${stray}::uuid`;

    const page = await listLinkPayments(fixture.db, { merchantId: fixture.merchantId, linkId: l.id, limit: 50 });
    expect(page.hasMore).toBe(false);
    expect(page.rows.map((r) => r.id)).toEqual([ids[1], ids[2], ids[0]]);
    expect(page.rows[0]).toEqual({
      id: ids[1],
      merchantOrderId: expect.stringMatching(/^lp-\d+$/),
      status: 'CREATED',
      amount: 2500n,
      refundedAmount: 0n,
      currency: 'XOF',
      msisdn: '+2250707000001',
      operator: 'SIMULATOR',
      createdAt: new Date(base.getTime() + 3 * 60_000),
    });
  });

  it('is bounded: the newest `limit`, and whether there are more', async () => {
    const l = await link(fixture.merchantId);
    const ids: string[] = [];
    for (let minute = 0; minute < 5; minute++) ids.push(await pay(fixture.merchantId, l.id, minute));
    const newest = [...ids].reverse();
    const three = await listLinkPayments(fixture.db, { merchantId: fixture.merchantId, linkId: l.id, limit: 3 });
    expect(three).toEqual({ rows: expect.any(Array), hasMore: true });
    expect(three.rows.map((r) => r.id)).toEqual(newest.slice(0, 3));
    const five = await listLinkPayments(fixture.db, { merchantId: fixture.merchantId, linkId: l.id, limit: 5 });
    expect(five.hasMore).toBe(false);
    expect(five.rows.map((r) => r.id)).toEqual(newest);
  });

  it("answers an empty page for another merchant's link and for an unknown one", async () => {
    const theirs = await link(other);
    await pay(other, theirs.id, 1);
    for (const linkId of [theirs.id, '00000000-0000-4000-8000-000000000000'])
      expect(await listLinkPayments(fixture.db, { merchantId: fixture.merchantId, linkId, limit: 50 })).toEqual({
        rows: [],
        hasMore: false,
      });
  });
});
