import type { TransactionStatus } from '@mm/domain';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import { Prisma } from '../generated/prisma/client.js';
import { createCashin } from './create-cashin.js';
import { createCashout } from './create-cashout.js';
import { cashinDaySql, cashinDaySummary, cashinTotalsBy, countAwaitingCashouts, utcDayOf } from './day-summary.js';
import { transition } from './moves/transition.js';

describe("the day's cash-ins and the cash-outs awaiting approval", () => {
  let fixture: MerchantTestDatabase;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
  });
  afterAll(async () => {
    await fixture.close();
  });

  // A fixed day, the rows moved into it: the test does not depend on when it runs.
  const day = new Date('2031-03-14T12:00:00.000Z');
  let orders = 0;
  async function cashin(
    countryCode: string,
    operator: string,
    amount: number,
    path: TransactionStatus[],
    createdAt: Date,
  ): Promise<string> {
    const r = await createCashin(fixture.db, {
      merchantId: fixture.merchantId,
      merchantOrderId: `day-${++orders}`,
      amount,
      currency: countryCode === 'CM' ? 'XAF' : 'XOF',
      countryCode,
      msisdn: '+2250500000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'fp',
      operator,
    });
    if (r.kind !== 'created') throw new Error('not created');
    for (const to of path)
      await fixture.db.$transaction((tx) => transition(tx, { transactionId: r.transaction.id, to, cause: 'test' }));
    await fixture.db.transaction.update({ where: { id: r.transaction.id }, data: { createdAt } });
    return r.transaction.id;
  }

  it('utcDayOf: midnight to midnight UTC', () => {
    expect(utcDayOf(new Date('2031-03-14T23:59:59.999Z'))).toEqual({
      start: new Date('2031-03-14T00:00:00.000Z'),
      end: new Date('2031-03-15T00:00:00.000Z'),
    });
  });

  it('counts and sums the cash-ins created in the UTC day per account and currency, then per operator and country', async () => {
    await cashin('CI', 'MTN', 1000, ['INITIATED', 'SUCCESS'], new Date('2031-03-14T00:00:00.000Z'));
    await cashin('CI', 'MTN', 2500, ['INITIATED', 'SUCCESS'], new Date('2031-03-14T10:00:00.000Z'));
    await cashin('CI', 'MTN', 700, ['INITIATED', 'FAILED'], new Date('2031-03-14T11:00:00.000Z'));
    await cashin('CI', 'MTN', 300, ['INITIATED', 'PENDING'], new Date('2031-03-14T11:30:00.000Z'));
    await cashin('CM', 'MTN', 4000, ['INITIATED', 'SUCCESS'], new Date('2031-03-14T12:00:00.000Z'));
    await cashin('CM', 'ORANGE', 900, ['INITIATED', 'PENDING', 'EXPIRED'], new Date('2031-03-14T23:59:59.999Z'));
    await cashin('CM', 'ORANGE', 800, [], new Date('2031-03-14T13:00:00.000Z'));
    // The days either side are left out.
    await cashin('CI', 'MTN', 9999, ['INITIATED', 'SUCCESS'], new Date('2031-03-13T23:59:59.999Z'));
    await cashin('CI', 'MTN', 9999, ['INITIATED', 'SUCCESS'], new Date('2031-03-15T00:00:00.000Z'));

    const rows = await cashinDaySummary(fixture.db, day);
    expect(rows).toEqual([
      {
        countryCode: 'CI',
        operator: 'MTN',
        currency: 'XOF',
        created: 4,
        success: 2,
        failed: 1,
        expired: 0,
        successAmount: 3500n,
      },
      {
        countryCode: 'CM',
        operator: 'MTN',
        currency: 'XAF',
        created: 1,
        success: 1,
        failed: 0,
        expired: 0,
        successAmount: 4000n,
      },
      {
        countryCode: 'CM',
        operator: 'ORANGE',
        currency: 'XAF',
        created: 2,
        success: 0,
        failed: 0,
        expired: 1,
        successAmount: 0n,
      },
    ]);
    expect(cashinTotalsBy(rows, 'operator')).toEqual([
      {
        key: 'MTN',
        created: 5,
        success: 3,
        failed: 1,
        expired: 0,
        successAmount: { XOF: 3500n, XAF: 4000n },
        successRate: 0.75,
      },
      { key: 'ORANGE', created: 2, success: 0, failed: 0, expired: 1, successAmount: {}, successRate: 0 },
    ]);
    expect(cashinTotalsBy(rows, 'countryCode').map((t) => [t.key, t.created, t.successRate])).toEqual([
      ['CI', 4, 2 / 3],
      ['CM', 3, 0.5],
    ]);
    expect(await cashinDaySummary(fixture.db, new Date('2031-03-16T08:00:00.000Z'))).toEqual([]);
  });

  it('no decided cash-in: the rate is null, not 0', () => {
    const [t] = cashinTotalsBy(
      [
        {
          countryCode: 'SN',
          operator: 'WAVE',
          currency: 'XOF',
          created: 3,
          success: 0,
          failed: 0,
          expired: 0,
          successAmount: 0n,
        },
      ],
      'operator',
    );
    expect(t?.successRate).toBeNull();
  });

  it('reads the day through transactions_created_idx, not a scan of the table', async () => {
    const { start, end } = utcDayOf(day);
    const plan = await fixture.db.$transaction(async (tx) => {
      // The table is tiny here: without this the planner would rightly scan it whole.
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      return tx.$queryRaw<{ 'QUERY PLAN': string }[]>(Prisma.sql`EXPLAIN ${cashinDaySql(start, end)}`);
    });
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('transactions_created_idx');
    expect(text).not.toContain('Seq Scan');
  });

  it('counts the cash-outs awaiting approval, not those sent without one', async () => {
    const before = await countAwaitingCashouts(fixture.db);
    for (const approval of ['required', 'required', 'none'] as const) {
      await createCashout(fixture.db, {
        merchantId: fixture.merchantId,
        merchantOrderId: `co-${++orders}`,
        amount: 100,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250707123401',
        reason: 'fournisseur',
        notifyUrl: null,
        requestFingerprint: 'fp',
        approval,
      });
    }
    expect((await countAwaitingCashouts(fixture.db)) - before).toBe(2);
  });
});
