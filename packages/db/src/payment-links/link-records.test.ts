import { randomUUID } from 'node:crypto';
import { PAYMENT_LINK_STATUSES, type PaymentLinkStatus, type TransactionStatus } from '@mm/domain';
import {
  cashinInput,
  createMerchantTestDatabase,
  linkInput,
  type MerchantTestDatabase,
} from '@mm/testing/test-database';
import { createMerchant } from '../merchants/index.js';
import { createCashin } from '../payments/index.js';
import { insertPaymentLink, listMerchantPaymentLinks, type NewPaymentLink, type PaymentLinkRecord } from './index.js';

let fixture: MerchantTestDatabase;
beforeAll(async () => {
  fixture = await createMerchantTestDatabase();
});
afterAll(async () => {
  await fixture.close();
});

// A fixed clock: links are created before it, expire either side of it.
const now = new Date('2031-03-14T12:00:00.000Z');
const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
let created = 0;

/** A link of `merchantId`, created `created` minutes before now (each one a minute after the previous by default). */
async function link(
  merchantId: string,
  o: Partial<NewPaymentLink> = {},
  createdAt = minutes(-1000 + ++created),
): Promise<PaymentLinkRecord> {
  return insertPaymentLink(fixture.db, linkInput(merchantId, o), createdAt);
}

const reusable = (maxPayments: number | null): Partial<NewPaymentLink> => ({ reusable: true, maxPayments });

let orders = 0;
/** A cash-in through the link, moved straight to `status` (its refunds as given). */
async function payment(
  linkId: string,
  status: TransactionStatus,
  o: { amount?: number; refunded?: number; merchantId?: string } = {},
): Promise<string> {
  const r = await createCashin(
    fixture.db,
    cashinInput(o.merchantId ?? fixture.merchantId, `link-test-${++orders}`, { amount: o.amount ?? 1000 }),
  );
  if (r.kind !== 'created') throw new Error('cash-in not created');
  const refunded = o.refunded ?? 0;
  await fixture.db.$executeRaw`UPDATE transactions SET payment_link_id = ${linkId}::uuid, status = ${status},
    refunded_amount = ${refunded}::bigint, refund_reserved_amount = ${refunded}::bigint WHERE id = ${r.transaction.id}::uuid`;
  return r.transaction.id;
}

async function deactivate(id: string, at = minutes(-30)): Promise<void> {
  await fixture.db.$executeRaw`UPDATE payment_links SET deactivated_at = ${at}::timestamptz WHERE id = ${id}::uuid`;
}

async function expire(id: string, at = minutes(-1)): Promise<void> {
  await fixture.db.$executeRaw`UPDATE payment_links SET expires_at = ${at}::timestamptz WHERE id = ${id}::uuid`;
}

async function all(merchantId: string, status?: PaymentLinkStatus): Promise<PaymentLinkRecord[]> {
  const page = await listMerchantPaymentLinks(fixture.db, { merchantId, limit: 100, status }, now);
  expect(page.hasMore).toBe(false);
  return page.links;
}

const ids = (links: readonly { id: string }[]) => links.map((l) => l.id).sort();

describe('statusCondition: the SQL filter of the list selects the links linkStatus gives that status', () => {
  /** Each link of the merchant with the status it must have. */
  const expected = new Map<string, PaymentLinkStatus>();
  let merchantId: string;

  beforeAll(async () => {
    merchantId = (await createMerchant(fixture.db, { name: 'Statuses', webhookUrl: null })).id;
    const add = async (status: PaymentLinkStatus, o: Partial<NewPaymentLink>, setUp: (id: string) => Promise<void>) => {
      const l = await link(merchantId, o);
      await setUp(l.id);
      expected.set(l.id, status);
    };
    const none = async () => {};

    // ACTIVE
    await add('ACTIVE', {}, none);
    await add('ACTIVE', { expiresAt: minutes(60) }, none);
    await add('ACTIVE', {}, async (id) => {
      // Held by a payment in progress (BUSY for a new one) but not paid: still ACTIVE.
      await payment(id, 'PENDING');
    });
    await add('ACTIVE', {}, async (id) => {
      // Failed and expired attempts give their place back.
      await payment(id, 'FAILED');
      await payment(id, 'EXPIRED');
    });
    await add('ACTIVE', reusable(3), async (id) => {
      await payment(id, 'SUCCESS');
      await payment(id, 'REVERSED');
      await payment(id, 'INITIATED');
      await payment(id, 'FAILED');
    });
    await add('ACTIVE', reusable(null), async (id) => {
      for (let i = 0; i < 3; i++) await payment(id, 'SUCCESS');
    });
    await add('ACTIVE', { amount: { kind: 'range', min: 500, max: 5000 }, ...reusable(null) }, none);

    // COMPLETED
    await add('COMPLETED', {}, async (id) => {
      await payment(id, 'SUCCESS');
    });
    await add('COMPLETED', {}, async (id) => {
      // A refunded payment was still paid.
      await payment(id, 'REVERSED', { refunded: 1000 });
    });
    await add('COMPLETED', reusable(2), async (id) => {
      await payment(id, 'SUCCESS');
      await payment(id, 'REVERSED', { refunded: 1000 });
      await payment(id, 'PENDING');
    });
    await add('COMPLETED', reusable(2), async (id) => {
      // More paid than its cap (a late success): still COMPLETED.
      for (let i = 0; i < 3; i++) await payment(id, 'SUCCESS');
    });
    // COMPLETED wins over EXPIRED.
    await add('COMPLETED', {}, async (id) => {
      await payment(id, 'SUCCESS');
      await expire(id);
    });
    await add('COMPLETED', reusable(2), async (id) => {
      await payment(id, 'SUCCESS');
      await payment(id, 'SUCCESS');
      await expire(id, minutes(-600));
    });

    // EXPIRED
    await add('EXPIRED', {}, async (id) => {
      await expire(id);
    });
    await add('EXPIRED', {}, async (id) => {
      // At expires_at itself.
      await expire(id, now);
    });
    await add('EXPIRED', {}, async (id) => {
      await payment(id, 'PENDING');
      await payment(id, 'FAILED');
      await expire(id);
    });
    await add('EXPIRED', reusable(3), async (id) => {
      await payment(id, 'SUCCESS');
      await payment(id, 'SUCCESS');
      await expire(id);
    });
    await add('EXPIRED', reusable(null), async (id) => {
      for (let i = 0; i < 3; i++) await payment(id, 'SUCCESS');
      await expire(id);
    });

    // INACTIVE
    await add('INACTIVE', {}, async (id) => {
      await deactivate(id);
    });
    await add('INACTIVE', { expiresAt: minutes(60) }, async (id) => {
      await deactivate(id);
    });
    // INACTIVE wins over EXPIRED and over COMPLETED.
    await add('INACTIVE', {}, async (id) => {
      await expire(id);
      await deactivate(id);
    });
    await add('INACTIVE', {}, async (id) => {
      await payment(id, 'SUCCESS');
      await deactivate(id);
    });
    await add('INACTIVE', reusable(1), async (id) => {
      await payment(id, 'SUCCESS');
      await expire(id);
      await deactivate(id);
    });
    await add('INACTIVE', reusable(null), async (id) => {
      await payment(id, 'PENDING');
      await deactivate(id, minutes(-1));
    });

    // Another merchant's links, of every status, never in this merchant's list.
    const other = (await createMerchant(fixture.db, { name: 'Other', webhookUrl: null })).id;
    await link(other);
    const paid = await link(other);
    await payment(paid.id, 'SUCCESS', { merchantId: other });
    await expire((await link(other)).id);
    await deactivate((await link(other)).id);
  });

  it('the records of the unfiltered list have the statuses the links were put in', async () => {
    const records = await all(merchantId);
    expect(new Map(records.map((r) => [r.id, r.status]))).toEqual(expected);
    for (const s of PAYMENT_LINK_STATUSES) expect(records.filter((r) => r.status === s).length).toBeGreaterThan(1);
  });

  it.each(PAYMENT_LINK_STATUSES)('status %s: exactly the links whose record has that status', async (status) => {
    const everything = await all(merchantId);
    const filtered = await all(merchantId, status);
    expect(ids(filtered)).toEqual(ids(everything.filter((r) => r.status === status)));
    expect(ids(filtered)).toEqual(
      [...expected]
        .filter(([, s]) => s === status)
        .map(([id]) => id)
        .sort(),
    );
    for (const r of filtered) expect(r.status).toBe(status);
  });

  it('the filtered lists are newest first and together cover every link once', async () => {
    const pages = await Promise.all(PAYMENT_LINK_STATUSES.map((s) => all(merchantId, s)));
    for (const page of pages) {
      const times = page.map((l) => l.createdAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    expect(ids(pages.flat())).toEqual([...expected.keys()].sort());
  });

  it('the filter reads the clock it is given: an expiry ahead of now is EXPIRED once passed', async () => {
    const later = minutes(120);
    const expiring = (await all(merchantId, 'ACTIVE')).filter((l) => l.expiresAt !== null);
    expect(expiring).toHaveLength(1);
    const list = async (status: PaymentLinkStatus) =>
      ids((await listMerchantPaymentLinks(fixture.db, { merchantId, limit: 100, status }, later)).links);
    expect(await list('EXPIRED')).toContain(expiring[0]!.id);
    expect(await list('ACTIVE')).not.toContain(expiring[0]!.id);
  });
});

describe('the counts of a link', () => {
  it('paid: SUCCESS and REVERSED; inProgress: CREATED, INITIATED, PENDING; collected: paid amounts less their refunds', async () => {
    const l = await link(fixture.merchantId, reusable(null));
    await payment(l.id, 'SUCCESS', { amount: 5000, refunded: 1200 });
    await payment(l.id, 'SUCCESS', { amount: 2500 });
    await payment(l.id, 'REVERSED', { amount: 3000, refunded: 3000 });
    await payment(l.id, 'REVERSED', { amount: 4000, refunded: 1000 });
    await payment(l.id, 'CREATED', { amount: 11000 });
    await payment(l.id, 'INITIATED', { amount: 13000 });
    await payment(l.id, 'PENDING', { amount: 17000 });
    await payment(l.id, 'FAILED', { amount: 19000 });
    await payment(l.id, 'EXPIRED', { amount: 23000 });
    // A payment of another link, and one of no link, count for neither.
    const another = await link(fixture.merchantId, reusable(null));
    await payment(another.id, 'SUCCESS', { amount: 29000 });
    await createCashin(fixture.db, cashinInput(fixture.merchantId, `no-link-${++orders}`, { amount: 31000 }));

    const record = (await all(fixture.merchantId)).find((r) => r.id === l.id)!;
    expect(record).toMatchObject({ paid: 4, inProgress: 3, collected: 3800n + 2500n + 0n + 3000n, status: 'ACTIVE' });
    expect(typeof record.paid).toBe('number');
    expect(typeof record.inProgress).toBe('number');
    expect((await all(fixture.merchantId)).find((r) => r.id === another.id)).toMatchObject({
      paid: 1,
      inProgress: 0,
      collected: 29000n,
    });
  });

  it('a new link has no payments: zeros, and its terms as given', async () => {
    const l = await link(fixture.merchantId, {
      amount: { kind: 'range', min: 500, max: 5000 },
      ...reusable(10),
      expiresAt: minutes(90),
      redirectUrl: 'https://boutique.example/merci',
      metadata: { sku: 'RW-M-042' },
    });
    expect(l).toMatchObject({
      merchantId: fixture.merchantId,
      amount: null,
      minAmount: 500n,
      maxAmount: 5000n,
      reusable: true,
      maxPayments: 10,
      expiresAt: minutes(90),
      redirectUrl: 'https://boutique.example/merci',
      metadata: { sku: 'RW-M-042' },
      deactivatedAt: null,
      paid: 0,
      inProgress: 0,
      collected: 0n,
      status: 'ACTIVE',
    });
    expect(l.slug).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('paging the list', () => {
  let merchantId: string;
  let newestFirst: string[];
  beforeAll(async () => {
    merchantId = (await createMerchant(fixture.db, { name: 'Pages', webhookUrl: null })).id;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await link(merchantId, {}, minutes(-100 + i))).id);
    newestFirst = made.reverse();
  });

  it('limit 2 chained by starting_after: every link once, newest first, has_more false on the last page', async () => {
    const pages: { ids: string[]; hasMore: boolean }[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await listMerchantPaymentLinks(fixture.db, { merchantId, limit: 2, startingAfter: after }, now);
      pages.push({ ids: page.links.map((l) => l.id), hasMore: page.hasMore });
      if (!page.hasMore) break;
      after = page.links.at(-1)!.id;
      if (pages.length > 5) throw new Error('the pages never end');
    }
    expect(pages).toEqual([
      { ids: newestFirst.slice(0, 2), hasMore: true },
      { ids: newestFirst.slice(2, 4), hasMore: true },
      { ids: newestFirst.slice(4), hasMore: false },
    ]);
  });

  it('a limit that exactly fits: has_more false', async () => {
    const page = await listMerchantPaymentLinks(fixture.db, { merchantId, limit: 5 }, now);
    expect(page.links.map((l) => l.id)).toEqual(newestFirst);
    expect(page.hasMore).toBe(false);
  });

  it('starting after the oldest link: an empty page', async () => {
    const page = await listMerchantPaymentLinks(
      fixture.db,
      { merchantId, limit: 2, startingAfter: newestFirst.at(-1) },
      now,
    );
    expect(page).toEqual({ links: [], hasMore: false });
  });

  it("starting after another merchant's link, or an unknown id: an empty page", async () => {
    const others = await link(fixture.merchantId, {}, minutes(100));
    for (const startingAfter of [others.id, randomUUID()]) {
      const page = await listMerchantPaymentLinks(fixture.db, { merchantId, limit: 2, startingAfter }, now);
      expect(page).toEqual({ links: [], hasMore: false });
    }
  });

  it('links created at the same instant are paged by id, none twice, none left out', async () => {
    const tied = (await createMerchant(fixture.db, { name: 'Tied', webhookUrl: null })).id;
    const at = minutes(-5);
    const made: string[] = [];
    for (let i = 0; i < 4; i++) made.push((await link(tied, {}, at)).id);
    const seen: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await listMerchantPaymentLinks(
        fixture.db,
        { merchantId: tied, limit: 1, startingAfter: after },
        now,
      );
      seen.push(...page.links.map((l) => l.id));
      if (!page.hasMore) break;
      after = page.links.at(-1)!.id;
    }
    expect(seen).toEqual([...made].sort().reverse());
  });

  it('paging within one status: starting_after and the filter together', async () => {
    await deactivate(newestFirst[1]!);
    await deactivate(newestFirst[3]!);
    const first = await listMerchantPaymentLinks(fixture.db, { merchantId, limit: 2, status: 'ACTIVE' }, now);
    expect(first.links.map((l) => l.id)).toEqual([newestFirst[0], newestFirst[2]]);
    expect(first.hasMore).toBe(true);
    const second = await listMerchantPaymentLinks(
      fixture.db,
      { merchantId, limit: 2, status: 'ACTIVE', startingAfter: newestFirst[2] },
      now,
    );
    expect(second).toMatchObject({ links: [{ id: newestFirst[4] }], hasMore: false });
    // starting_after a link of another status still places the page.
    const inactive = await listMerchantPaymentLinks(
      fixture.db,
      { merchantId, limit: 2, status: 'INACTIVE', startingAfter: newestFirst[0] },
      now,
    );
    expect(inactive.links.map((l) => l.id)).toEqual([newestFirst[1], newestFirst[3]]);
  });
});
