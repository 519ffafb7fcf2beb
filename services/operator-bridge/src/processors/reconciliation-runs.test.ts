import type { Db } from '@mm/db';
import { createMerchant } from '@mm/db/merchants';
import type { OperatorRecord } from '@mm/domain';
import { createLogger, Registry } from '@mm/observability';
import { OperatorUnavailableError } from '@mm/operators';
import { oneAdapter } from '@mm/operators/testing';
import type { AfterCommit, CommittedChange } from '@mm/queues';
import { createMerchantTestDatabase, sumBy, type MerchantTestDatabase } from '@mm/testing';
import { cashinOfDay, collected, jobOf, listingOperator, type DayCashin } from '../test-support/reconciliation-day.js';
import { dayBefore, dueTime, reconciliationRunsHandler } from './reconciliation-runs.js';

const DAY = '2026-11-20';
const NEXT_NIGHT = Date.parse('2026-11-21T01:30:00Z');

describe('reconciliation-runs processor (real database, an operator listing its day)', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  const theirs: OperatorRecord[] = [];
  const paid = new Set<string>();
  const published: CommittedChange[] = [];
  /** What commitStep hands over once committed: the jobs the bridge publishes at once. */
  const recording = {
    run: async (changes: (CommittedChange | null)[]) => {
      published.push(...changes.filter((c): c is CommittedChange => c !== null));
    },
  } as unknown as AfterCommit;
  let ok: DayCashin;
  let late: DayCashin;
  let missing: DayCashin;

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
    // A merchant with a webhook URL: a late capture notifies it.
    const { id: merchantId } = await createMerchant(db, { name: 'Notified', webhookUrl: 'https://shop.example/hooks' });
    ok = await cashinOfDay(db, merchantId, { order: 'ok', amount: 1000, status: 'SUCCESS', at: `${DAY}T09:00:00Z` });
    late = await cashinOfDay(db, merchantId, {
      order: 'late',
      amount: 2000,
      status: 'EXPIRED',
      at: `${DAY}T10:00:00Z`,
    });
    missing = await cashinOfDay(db, merchantId, {
      order: 'missing',
      amount: 3000,
      status: 'SUCCESS',
      at: `${DAY}T11:00:00Z`,
    });
    // Another day's: not part of this run.
    await cashinOfDay(db, merchantId, {
      order: 'other-day',
      amount: 5000,
      status: 'SUCCESS',
      at: '2026-11-19T23:59:00Z',
    });
    theirs.push(
      collected(ok.reference, 1000, 'OP-ok'),
      collected(late.reference, 2000, 'OP-late'),
      collected(null, 4000, 'X9'),
    );
    paid.add(late.reference);
  });
  afterAll(async () => {
    await fixture.close();
  });

  const handler = (
    metrics: Registry,
    operator = listingOperator(
      (date) => (date === DAY ? theirs : []),
      () => paid,
    ),
  ) => ({
    operator,
    run: reconciliationRunsHandler({
      db,
      afterCommit: recording,
      logger: createLogger('test', 'silent'),
      metrics,
      adapters: oneAdapter(operator),
    }),
  });

  it('reconciles the day before the job (date null): a late success applied and its webhook published at once, other differences left as cases; the summary is the return value', async () => {
    const metrics = new Registry();
    const { operator, run } = handler(metrics);
    const summary = await run(
      { country_code: 'CI', operator: 'SIMULATOR', date: null, trigger: 'schedule' },
      jobOf({ timestamp: NEXT_NIGHT }),
    );

    expect(operator.pages).toEqual([`${DAY}@0`, `${DAY}@2`]);
    expect(summary).toMatchObject({
      operator: 'SIMULATOR',
      country_code: 'CI',
      date: DAY,
      matched: 2,
      open_cases: 2,
      resolved_automatically: 1,
      sources: ['API'],
      by_category: {
        MATCHED: { count: 2, amount: 3000 },
        MISSING_AT_OPERATOR: { count: 1, amount: 3000 },
        UNKNOWN_TO_US: { count: 1, amount: 4000 },
        STATUS_DIFFERS: { count: 0, amount: 0 },
        AMOUNT_DIFFERS: { count: 0, amount: 0 },
        PENDING: { count: 0, amount: 0 },
      },
    });
    // The late success credits the merchant (decisions 4), and its webhook job went out with the commit.
    expect(await db.transaction.findUniqueOrThrow({ where: { id: late.id } })).toMatchObject({
      status: 'SUCCESS',
      providerTxId: `OP-LATE-${late.reference}`,
    });
    const webhooks = published.flatMap((c) => c.outbox).filter((o) => o.topic === 'webhook-deliveries');
    expect(webhooks).toHaveLength(1);
    expect(published.map((c) => c.transaction?.id)).toEqual([late.id]);

    const cases = await db.reconciliationCase.findMany();
    const byKey = Object.fromEntries(
      cases.map((c) => [c.recordKey, [c.category, c.state, c.resolution, Number(c.difference)]]),
    );
    expect(byKey).toEqual({
      [late.reference]: ['STATUS_DIFFERS', 'RESOLVED', 'AUTOMATIC', 0],
      [missing.reference]: ['MISSING_AT_OPERATOR', 'OPEN', null, -3000],
      'op:X9': ['UNKNOWN_TO_US', 'OPEN', null, 4000],
    });
    expect(await db.reconciliationRun.findMany()).toEqual([
      expect.objectContaining({ countryCode: 'CI', operator: 'SIMULATOR', matched: 2, openCases: 2, runs: 1 }),
    ]);
    expect(sumBy(await metrics.metrics(), 'mm_reconciliation_runs_total', (l) => `${l.operator}:${l.outcome}`)).toEqual(
      { 'SIMULATOR:open_cases': 1 },
    );
  });

  it('gives the same day again on a second run (a re-query), nothing applied twice', async () => {
    published.length = 0;
    const { run } = handler(new Registry());
    const summary = await run(
      { country_code: 'CI', operator: 'SIMULATOR', date: DAY, trigger: 'manual' },
      jobOf({ timestamp: Date.now() }),
    );
    expect(summary).toMatchObject({ date: DAY, matched: 2, open_cases: 2, resolved_automatically: 0 });
    expect(published).toEqual([]);
    expect(await db.reconciliationCase.count()).toBe(3);
    expect(await db.reconciliationRun.findFirstOrThrow()).toMatchObject({ runs: 2, openCases: 2 });
  });

  it('fails the attempt when the operator does not answer, counted as retried, then failed on the last attempt', async () => {
    const metrics = new Registry();
    const down = {
      ...listingOperator(
        (date) => (date === DAY ? theirs : []),
        () => paid,
      ),
      listRecords: async () => {
        throw new OperatorUnavailableError('timed out');
      },
    };
    const run = reconciliationRunsHandler({
      db,
      afterCommit: recording,
      logger: createLogger('test', 'silent'),
      metrics,
      adapters: oneAdapter(down),
    });
    const payload = { country_code: 'CI', operator: 'SIMULATOR', date: DAY, trigger: 'manual' } as const;
    await expect(run(payload, jobOf({ timestamp: Date.now(), attemptsMade: 0 }))).rejects.toThrow('timed out');
    await expect(run(payload, jobOf({ timestamp: Date.now(), attemptsMade: 4 }))).rejects.toThrow('timed out');
    expect(sumBy(await metrics.metrics(), 'mm_reconciliation_runs_total', (l) => l.outcome!)).toEqual({
      retried: 1,
      failed: 1,
    });
    expect(await db.reconciliationRun.findFirstOrThrow()).toMatchObject({ runs: 2 });
  });
});

describe('the day a job reconciles', () => {
  it("is the UTC day before the job was due: a scheduler's occurrence (from its id), else the job's timestamp", () => {
    const occurrence = Date.parse('2026-11-28T01:30:00Z');
    // Created by the scheduler the day before, when the previous one ran.
    const scheduled = jobOf({
      id: `repeat:reconcile:CI:SIMULATOR:${occurrence}`,
      scheduler: 'reconcile:CI:SIMULATOR',
      timestamp: Date.parse('2026-11-27T01:30:02Z'),
    });
    expect(dueTime(scheduled)).toBe(occurrence);
    expect(dayBefore(dueTime(scheduled))).toBe('2026-11-27');
    expect(dayBefore(dueTime(jobOf({ timestamp: Date.parse('2026-03-01T00:00:00Z') })))).toBe('2026-02-28');
    expect(dayBefore(Date.parse('2026-01-01T23:59:59Z'))).toBe('2025-12-31');
  });
});
