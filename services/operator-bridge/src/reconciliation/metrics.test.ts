import { randomUUID } from 'node:crypto';
import type { Db } from '@mm/db';
import { Registry } from '@mm/observability';
import { createMerchantTestDatabase, samplesOf, type MerchantTestDatabase } from '@mm/testing';
import { reportOpenCases } from './metrics.js';

describe('the open reconciliation cases on /metrics (read from PostgreSQL at scrape time, cached)', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
  });
  afterAll(async () => {
    await fixture.close();
  });

  const openCase = (
    country: string,
    operator: string,
    difference: number,
    currency: string,
    state: 'OPEN' | 'RESOLVED' = 'OPEN',
  ) =>
    db.reconciliationCase.create({
      data: {
        id: randomUUID(),
        countryCode: country,
        operator,
        kind: 'CASHIN',
        recordKey: randomUUID(),
        businessDate: new Date('2026-11-20'),
        category: 'MISSING_AT_OPERATOR',
        state,
        resolution: state === 'RESOLVED' ? 'ACCEPTED' : null,
        currency,
        difference: BigInt(difference),
      },
    });

  it('reports every enabled account (0 without cases) and the open cases of any account, refreshed at most every cacheMs', async () => {
    const registry = new Registry();
    let now = 1_000_000;
    reportOpenCases(registry, db, { cacheMs: 15_000, now: () => now });
    const scrape = async () => {
      const text = await registry.metrics();
      return {
        open: Object.fromEntries(
          samplesOf(text, 'mm_reconciliation_open_cases').map((s) => [
            `${s.labels.country}:${s.labels.operator}`,
            s.value,
          ]),
        ),
        amount: Object.fromEntries(
          samplesOf(text, 'mm_reconciliation_unmatched_amount').map((s) => [
            `${s.labels.country}:${s.labels.operator}:${s.labels.currency}`,
            s.value,
          ]),
        ),
      };
    };
    expect(await scrape()).toEqual({
      open: { 'CI:SIMULATOR': 0, 'CM:SIMULATOR': 0, 'SN:SIMULATOR': 0 },
      amount: { 'CI:SIMULATOR:XOF': 0, 'CM:SIMULATOR:XAF': 0, 'SN:SIMULATOR:XOF': 0 },
    });

    await openCase('CI', 'SIMULATOR', -2500, 'XOF');
    await openCase('CI', 'SIMULATOR', 700, 'XOF');
    await openCase('CI', 'SIMULATOR', 9999, 'XOF', 'RESOLVED');
    // A disabled account's case, in a currency the operator reported: reported all the same.
    await openCase('CI', 'MTN', 300, 'XAF');

    now += 14_000;
    expect((await scrape()).open['CI:SIMULATOR']).toBe(0);
    now += 1_000;
    expect(await scrape()).toEqual({
      open: { 'CI:SIMULATOR': 2, 'CI:MTN': 1, 'CM:SIMULATOR': 0, 'SN:SIMULATOR': 0 },
      amount: { 'CI:SIMULATOR:XOF': 3200, 'CI:MTN:XAF': 300, 'CM:SIMULATOR:XAF': 0, 'SN:SIMULATOR:XOF': 0 },
    });

    // Resolved since: gone at the next reading.
    await db.reconciliationCase.updateMany({
      where: { countryCode: 'CI', operator: 'MTN' },
      data: { state: 'RESOLVED', resolution: 'WRITTEN_OFF' },
    });
    now += 15_000;
    const after = await scrape();
    expect(after.open).toEqual({ 'CI:SIMULATOR': 2, 'CM:SIMULATOR': 0, 'SN:SIMULATOR': 0 });
    expect(after.amount).not.toHaveProperty('CI:MTN:XAF');
  });
});
