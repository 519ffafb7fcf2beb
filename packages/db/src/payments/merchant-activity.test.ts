import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { activityOf, activityWindow, merchantActivity, type ActivityGroup } from './merchant-activity.js';

const g = (day: string, status: string, count: number, amount: number, more: Partial<ActivityGroup> = {}) => ({
  day,
  currency: 'XOF',
  status,
  failureCode: null,
  operator: 'ORANGE',
  count,
  amount: BigInt(amount),
  ...more,
});

describe('activityWindow', () => {
  it('is the 30 UTC days ending with today, whatever the hour', () => {
    expect(activityWindow(new Date('2026-12-03T23:59:59.999Z'))).toEqual({
      from: new Date('2026-11-04T00:00:00Z'),
      until: new Date('2026-12-04T00:00:00Z'),
    });
    expect(activityWindow(new Date('2026-12-03T00:00:00Z')).from).toEqual(new Date('2026-11-04T00:00:00Z'));
  });
});

describe('activityOf (groups in, figures out)', () => {
  const window = activityWindow(new Date('2026-12-03T10:00:00Z'));

  it('has every day of the window, oldest first, days without payments as zeros with no rate', () => {
    const a = activityOf([g('2026-12-01', 'SUCCESS', 2, 3000)], window);
    expect(a.days).toHaveLength(30);
    expect(a.days[0]!.day).toBe('2026-11-04');
    expect(a.days[29]!.day).toBe('2026-12-03');
    const empty = a.days.find((d) => d.day === '2026-11-20')!;
    expect(empty).toEqual({
      day: '2026-11-20',
      succeeded: 0,
      unsuccessful: 0,
      inFlight: 0,
      successRate: null,
      collected: { XOF: 0n },
    });
    expect(a.days.find((d) => d.day === '2026-12-01')).toMatchObject({ succeeded: 2, collected: { XOF: 3000n } });
  });

  it('counts REVERSED as collected, and leaves payments in flight out of the success rate', () => {
    const a = activityOf(
      [
        g('2026-12-02', 'SUCCESS', 3, 3000),
        g('2026-12-02', 'REVERSED', 1, 500),
        g('2026-12-02', 'FAILED', 1, 100, { failureCode: 'INSUFFICIENT_BALANCE' }),
        g('2026-12-02', 'EXPIRED', 0 + 1, 100),
        g('2026-12-02', 'PENDING', 6, 9999),
        g('2026-12-02', 'CREATED', 4, 9999),
      ],
      window,
    );
    const day = a.days.find((d) => d.day === '2026-12-02')!;
    expect(day).toMatchObject({ succeeded: 4, unsuccessful: 2, inFlight: 10, collected: { XOF: 3500n } });
    expect(day.successRate).toBeCloseTo(4 / 6);
    expect(a.totals).toEqual({ succeeded: 4, unsuccessful: 2, inFlight: 10, successRate: 4 / 6 });
    // Only pending: no outcome yet, no rate.
    expect(activityOf([g('2026-12-02', 'PENDING', 6, 1)], window).days[28]!.successRate).toBeNull();
  });

  it('keeps currencies apart, each day with every currency of the window', () => {
    const a = activityOf(
      [g('2026-12-01', 'SUCCESS', 1, 1000), g('2026-12-02', 'SUCCESS', 1, 700, { currency: 'XAF' })],
      window,
    );
    expect(a.currencies).toEqual(['XAF', 'XOF']);
    expect(a.days.find((d) => d.day === '2026-12-01')!.collected).toEqual({ XAF: 0n, XOF: 1000n });
    expect(a.days.find((d) => d.day === '2026-12-02')!.collected).toEqual({ XAF: 700n, XOF: 0n });
  });

  it('counts FAILED by failure code (UNKNOWN when none), most frequent first; EXPIRED has no code', () => {
    const a = activityOf(
      [
        g('2026-12-01', 'FAILED', 2, 1, { failureCode: 'INSUFFICIENT_BALANCE' }),
        g('2026-12-02', 'FAILED', 3, 1, { failureCode: 'INSUFFICIENT_BALANCE' }),
        g('2026-12-02', 'FAILED', 4, 1, { failureCode: 'CUSTOMER_DID_NOT_VALIDATE' }),
        g('2026-12-02', 'FAILED', 1, 1),
        g('2026-12-02', 'EXPIRED', 9, 1),
      ],
      window,
    );
    expect(a.failures).toEqual([
      { code: 'INSUFFICIENT_BALANCE', count: 5 },
      { code: 'CUSTOMER_DID_NOT_VALIDATE', count: 4 },
      { code: 'UNKNOWN', count: 1 },
    ]);
  });

  it('shares the succeeded cash-ins by operator and currency, count and amount', () => {
    const a = activityOf(
      [
        g('2026-12-01', 'SUCCESS', 2, 2000, { operator: 'MTN' }),
        g('2026-12-02', 'SUCCESS', 1, 500, { operator: 'MTN' }),
        g('2026-12-02', 'SUCCESS', 1, 9000, { operator: 'ORANGE' }),
        g('2026-12-02', 'FAILED', 7, 9000, { operator: 'ORANGE' }),
      ],
      window,
    );
    expect(a.operators).toEqual([
      { operator: 'MTN', currency: 'XOF', count: 3, amount: 2500n },
      { operator: 'ORANGE', currency: 'XOF', count: 1, amount: 9000n },
    ]);
  });

  it('ignores a group outside the window', () => {
    const a = activityOf([g('2026-11-03', 'SUCCESS', 5, 5000)], window);
    expect(a.totals.succeeded).toBe(0);
    expect(a.currencies).toEqual([]);
    expect(a.failures).toEqual([]);
  });
});

describe('merchantActivity (the SQL read)', () => {
  let database: TestDatabase;
  let db: Db;
  let merchant: string;
  let other: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 2 });
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
    merchant = (await createMerchant(db, { name: 'Activity shop', webhookUrl: null })).id;
    other = (await createMerchant(db, { name: 'Other shop', webhookUrl: null })).id;
    const insert = (merchantId: string, i: number, type: string, status: string, at: string, more = {}) => {
      const r = {
        amount: 1000,
        currency: 'XOF',
        country: 'CI',
        operator: 'ORANGE',
        failureCode: null as string | null,
        ...more,
      };
      return db.$executeRaw`
        INSERT INTO transactions (id, merchant_id, merchant_order_id, type, status, amount, currency, country_code, msisdn,
          request_fingerprint, provider_reference, operator, failure_code, created_at, updated_at)
        VALUES (gen_random_uuid(), ${merchantId}::uuid, ${`o-${i}`}, ${type}, ${status}, ${r.amount}, ${r.currency}, ${r.country},
          '+2250707000001', 'fp', ${`REF-${merchantId}-${i}`}, ${r.operator}, ${r.failureCode}, ${new Date(at)}, now())`;
    };
    let i = 0;
    // The window's first instant and the last instant before it, the last one of today.
    await insert(merchant, ++i, 'CASHIN', 'SUCCESS', '2026-11-04T00:00:00Z', { amount: 1111 });
    await insert(merchant, ++i, 'CASHIN', 'SUCCESS', '2026-11-03T23:59:59.999Z', { amount: 99_999 });
    await insert(merchant, ++i, 'CASHIN', 'SUCCESS', '2026-12-03T23:59:59.999Z', { amount: 2000, operator: 'MTN' });
    await insert(merchant, ++i, 'CASHIN', 'FAILED', '2026-12-03T08:00:00Z', { failureCode: 'INSUFFICIENT_BALANCE' });
    await insert(merchant, ++i, 'CASHIN', 'PENDING', '2026-12-03T09:00:00Z');
    await insert(merchant, ++i, 'CASHIN', 'SUCCESS', '2026-12-02T09:00:00Z', {
      amount: 700,
      currency: 'XAF',
      country: 'CM',
      operator: 'MTN',
    });
    // Not collections, or not this merchant's.
    await insert(merchant, ++i, 'CASHOUT', 'SUCCESS', '2026-12-03T10:00:00Z', { amount: 50_000 });
    await insert(other, ++i, 'CASHIN', 'SUCCESS', '2026-12-03T10:00:00Z', { amount: 60_000 });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  it("reads the merchant's cash-ins of the 30 UTC days ending today into the figures", async () => {
    const a = await merchantActivity(db, merchant, new Date('2026-12-03T12:00:00Z'));
    expect(a.days).toHaveLength(30);
    expect(a.days[0]).toMatchObject({ day: '2026-11-04', succeeded: 1, collected: { XOF: 1111n, XAF: 0n } });
    expect(a.days[29]).toMatchObject({
      day: '2026-12-03',
      succeeded: 1,
      unsuccessful: 1,
      inFlight: 1,
      successRate: 0.5,
      collected: { XOF: 2000n, XAF: 0n },
    });
    expect(a.days[28]).toMatchObject({ day: '2026-12-02', collected: { XOF: 0n, XAF: 700n } });
    expect(a.totals).toEqual({ succeeded: 3, unsuccessful: 1, inFlight: 1, successRate: 0.75 });
    expect(a.failures).toEqual([{ code: 'INSUFFICIENT_BALANCE', count: 1 }]);
    expect(a.operators).toEqual([
      { operator: 'MTN', currency: 'XAF', count: 1, amount: 700n },
      { operator: 'MTN', currency: 'XOF', count: 1, amount: 2000n },
      { operator: 'ORANGE', currency: 'XOF', count: 1, amount: 1111n },
    ]);
  });
});
