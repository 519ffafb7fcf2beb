import type { Db } from '@mm/db';
import type { TransactionStatus } from '@mm/domain';
import { CaseChangedError, ourMovementsFor, resolveCase, saveOperatorRecords } from '@mm/db/reconciliation';
import { createCashin, transition } from '@mm/db/payments';
import { verifyLedger } from '@mm/db/ledger';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import { reconcileDay } from './reconcile-day.js';

/** What the property test does not reach: records arriving days late, and a resolved case whose difference changes. */
describe('reconcileDay over several days', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  let seq = 0;
  const account = { countryCode: 'CI', operator: 'SIMULATOR' };
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase(3);
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  /** A cash-in moved through `path` and dated `createdAt` (the day its run reads it on). */
  async function cashin(amount: number, path: readonly TransactionStatus[], createdAt: string) {
    const order = `late-${++seq}`;
    const r = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    for (const to of path)
      await db.$transaction((tx) => transition(tx, { transactionId: r.transaction.id, to, cause: 'test' }));
    await db.$executeRaw`UPDATE transactions SET created_at = ${createdAt}::timestamptz WHERE id = ${r.transaction.id}::uuid`;
    return r.transaction;
  }
  const collected = (amount: number, date: string) =>
    cashin(amount, ['INITIATED', 'PENDING', 'SUCCESS'], `${date}T23:59:00Z`);
  const record = (reference: string, amount: number, businessDate: string) => ({
    kind: 'CASHIN' as const,
    reference,
    operatorTxId: null,
    amount,
    currency: 'XOF',
    outcome: 'SUCCESS' as const,
    businessDate,
  });

  it('a record that arrives days late, booked on a later day, closes the case its own day opened', async () => {
    const t = await collected(3000, '2026-03-01');
    const day1 = await reconcileDay({ db, adapter: null }, account, '2026-03-01');
    expect(day1).toMatchObject({
      matched: 0,
      open_cases: 1,
      by_category: { MISSING_AT_OPERATOR: { count: 1, amount: 3000 } },
    });
    const opened = await db.reconciliationCase.findFirstOrThrow({ where: { recordKey: t.providerReference } });
    expect(opened).toMatchObject({
      state: 'OPEN',
      category: 'MISSING_AT_OPERATOR',
      difference: -3000n,
      transactionId: t.id,
    });

    // The operator booked it after midnight; its statement arrives three days later.
    await saveOperatorRecords(db, account, [record(t.providerReference, 3000, '2026-03-02')], 'STATEMENT');
    const day2 = await reconcileDay({ db, adapter: null }, account, '2026-03-02');
    expect(day2).toMatchObject({ matched: 1, open_cases: 0, sources: ['STATEMENT'] });
    expect(await db.reconciliationCase.findUniqueOrThrow({ where: { id: opened.id } })).toMatchObject({
      state: 'RESOLVED',
      resolution: 'MATCHED_LATER',
      difference: 0n,
    });
    // Its own day, run again, agrees.
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-01')).toMatchObject({
      matched: 1,
      open_cases: 0,
    });
  });

  it('an accepted case stays resolved while its difference is the one accepted, opens again when it changes, and posts only the change', async () => {
    const t = await collected(10_000, '2026-03-05');
    await saveOperatorRecords(db, account, [record(t.providerReference, 9_850, '2026-03-05')], 'STATEMENT');
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-05')).toMatchObject({
      open_cases: 1,
      by_category: { AMOUNT_DIFFERS: { count: 1, amount: 150 } },
    });
    const c = await db.reconciliationCase.findFirstOrThrow({ where: { recordKey: t.providerReference } });
    const suspense = async () =>
      (
        await db.ledgerAccount.findFirst({
          where: { merchantId: null, countryCode: 'CI', kind: 'RECONCILIATION_SUSPENSE' },
        })
      )?.balance ?? 0n;
    const before = await suspense();
    await db.$transaction((tx) => resolveCase(tx, c.id, { resolution: 'ACCEPTED' }, null));
    expect(await suspense()).toBe(before - 150n);
    await expect(
      db.$transaction((tx) => resolveCase(tx, c.id, { resolution: 'ACCEPTED' }, null)),
    ).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-05')).toMatchObject({ open_cases: 0 });

    // A corrected statement: the operator now says 9 900.
    await saveOperatorRecords(db, account, [record(t.providerReference, 9_900, '2026-03-05')], 'STATEMENT');
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-05')).toMatchObject({ open_cases: 1 });
    expect(await db.reconciliationCase.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      state: 'OPEN',
      difference: -100n,
      postedAmount: -150n,
    });
    await db.$transaction((tx) => resolveCase(tx, c.id, { resolution: 'WRITTEN_OFF', reason: 'operator fee' }, null));
    expect(await suspense()).toBe(before);
    expect(await db.reconciliationCase.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      state: 'RESOLVED',
      resolution: 'WRITTEN_OFF',
      postedAmount: -100n,
      writtenOffAmount: -100n,
      note: 'operator fee',
    });
    expect(await verifyLedger(db)).toMatchObject({ ok: true, problems: [] });

    // The operator's final statement agrees with us: the money posted for it must be taken back by a person.
    await saveOperatorRecords(db, account, [record(t.providerReference, 10_000, '2026-03-05')], 'STATEMENT');
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-05')).toMatchObject({
      matched: 1,
      open_cases: 1,
    });
    await db.$transaction((tx) =>
      resolveCase(tx, c.id, { resolution: 'WRITTEN_OFF', reason: 'statement corrected' }, null),
    );
    expect(await db.reconciliationCase.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      postedAmount: 0n,
      writtenOffAmount: 0n,
    });
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-05')).toMatchObject({ open_cases: 0 });
    expect(await verifyLedger(db)).toMatchObject({ ok: true, problems: [] });
  });

  it('a write-off needs a reason, and changes nothing without one', async () => {
    const t = await collected(500, '2026-03-07');
    await reconcileDay({ db, adapter: null }, account, '2026-03-07');
    const c = await db.reconciliationCase.findFirstOrThrow({ where: { recordKey: t.providerReference } });
    const journals = await db.journalEntry.count();
    await expect(
      db.$transaction((tx) => resolveCase(tx, c.id, { resolution: 'WRITTEN_OFF', reason: '  ' }, null)),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await db.journalEntry.count()).toBe(journals);
    expect(await db.reconciliationCase.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ state: 'OPEN' });
  });

  it('two runs of one day at once record one case, neither failing', async () => {
    const t = await collected(800, '2026-03-09');
    const [a, b] = await Promise.all([
      reconcileDay({ db, adapter: null }, account, '2026-03-09'),
      reconcileDay({ db, adapter: null }, account, '2026-03-09'),
    ]);
    expect([a.open_cases, b.open_cases]).toEqual([1, 1]);
    expect(await db.reconciliationCase.count({ where: { recordKey: t.providerReference } })).toBe(1);
    expect(
      await db.reconciliationRun.findFirstOrThrow({ where: { businessDate: new Date('2026-03-09T00:00:00Z') } }),
    ).toMatchObject({ runs: 2 });
  });

  it("a record first unknown to us, later paired with our movement by the operator's id, closes its earlier case", async () => {
    const { id } = await cashin(1200, ['INITIATED', 'PENDING'], '2026-03-11T10:00:00Z');
    // The operator's statement names it by its own id only; we do not have that id yet.
    await saveOperatorRecords(
      db,
      account,
      [
        {
          kind: 'CASHIN',
          reference: null,
          operatorTxId: 'OPX-1',
          amount: 1200,
          currency: 'XOF',
          outcome: 'SUCCESS',
          businessDate: '2026-03-11',
        },
      ],
      'STATEMENT',
    );
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-11')).toMatchObject({
      open_cases: 1,
      by_category: { UNKNOWN_TO_US: { count: 1 }, PENDING: { count: 1 } },
    });
    const unknown = await db.reconciliationCase.findFirstOrThrow({ where: { recordKey: 'op:OPX-1' } });
    // Then the operator's result arrives, with its id: the two are one movement.
    await db.$transaction((tx) =>
      transition(tx, { transactionId: id, to: 'SUCCESS', cause: 'test', patch: { providerTxId: 'OPX-1' } }),
    );
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-11')).toMatchObject({
      open_cases: 0,
      matched: 1,
    });
    expect(await db.reconciliationCase.findUniqueOrThrow({ where: { id: unknown.id } })).toMatchObject({
      state: 'RESOLVED',
      resolution: 'MATCHED_LATER',
    });
  });

  it('does not apply a late success whose difference a person already accepted', async () => {
    const { id, providerReference } = await cashin(2100, ['INITIATED', 'PENDING', 'EXPIRED'], '2026-03-13T10:00:00Z');
    await saveOperatorRecords(db, account, [record(providerReference, 2100, '2026-03-13')], 'STATEMENT');
    await reconcileDay({ db, adapter: null }, account, '2026-03-13');
    const c = await db.reconciliationCase.findFirstOrThrow({ where: { recordKey: providerReference } });
    expect(c).toMatchObject({ category: 'STATUS_DIFFERS', state: 'OPEN', difference: 2100n });
    await db.$transaction((tx) => resolveCase(tx, c.id, { resolution: 'ACCEPTED' }, null));
    // Now the operator's status confirms it: the service leaves it to the person's decision.
    const confirming = {
      queryStatus: () =>
        Promise.resolve({
          found: true,
          providerState: 'OK' as const,
          providerTxnStatus: '200',
          providerTxId: 'OPL-1',
          failureReason: null,
        }),
    };
    expect(await reconcileDay({ db, adapter: confirming }, account, '2026-03-13')).toMatchObject({
      open_cases: 0,
      resolved_automatically: 0,
    });
    expect((await db.transaction.findUniqueOrThrow({ where: { id } })).status).toBe('EXPIRED');
    expect(await verifyLedger(db)).toMatchObject({ ok: true, problems: [] });
  });
  it('a person resolving a case posts only the amount they were shown: a case changed since posts nothing', async () => {
    const t = await collected(4_000, '2026-03-09');
    await saveOperatorRecords(db, account, [record(t.providerReference, 3_900, '2026-03-09')], 'STATEMENT');
    await reconcileDay({ db, adapter: null }, account, '2026-03-09');
    const c = await db.reconciliationCase.findFirstOrThrow({ where: { recordKey: t.providerReference } });
    // Shown -100; the operator's corrected statement since says 3 950, so accepting would post -50.
    await saveOperatorRecords(db, account, [record(t.providerReference, 3_950, '2026-03-09')], 'STATEMENT');
    await reconcileDay({ db, adapter: null }, account, '2026-03-09');
    const journals = await db.journalEntry.count();
    const refused = await db
      .$transaction((tx) => resolveCase(tx, c.id, { resolution: 'ACCEPTED', expectedToPost: -100 }, null))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CaseChangedError);
    expect(refused).toMatchObject({ expectedToPost: -100, toPost: -50 });
    expect(await db.journalEntry.count()).toBe(journals);
    expect(await db.reconciliationCase.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      state: 'OPEN',
      postedAmount: 0n,
    });
    await db.$transaction((tx) => resolveCase(tx, c.id, { resolution: 'ACCEPTED', expectedToPost: -50 }, null));
    expect(await db.reconciliationCase.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      state: 'RESOLVED',
      postedAmount: -50n,
    });
  });

  it('reads our movements of a day through indexes: the rows it reads follow the day, not the size of the tables', async () => {
    for (let i = 0; i < 30; i++) await collected(1_000 + i, '2026-02-10');
    // The counters also hold this connection's earlier transactions not yet reported: the difference is this read's.
    const rowsRead = await db.$transaction(async (tx) => {
      const count = async () =>
        (
          await tx.$queryRaw<{ relname: string; n: bigint }[]>`
        SELECT relname, coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_xact_user_tables
         WHERE relname IN ('transactions', 'refunds') ORDER BY relname`
        ).map((r) => [r.relname, Number(r.n)] as const);
      // On tables this small a whole scan is the cheaper plan; priced out, PostgreSQL shows which plan it has without one.
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      const before = await count();
      // A day with nothing, and names the operator's records gave that are not ours.
      expect(await ourMovementsFor(tx, account, '2026-04-01', ['MP-x', 'RF-x'], ['OP-x'])).toEqual([]);
      const after = await count();
      return after.map(([name, n], i) => [name, n - before[i]![1]]);
    });
    // Without an index for each condition, PostgreSQL reads every transaction (a scan of the table or of its primary key).
    expect(rowsRead).toEqual([
      ['refunds', 0],
      ['transactions', 0],
    ]);
  });
  it('a customer charged twice under one reference: the second movement is a case of its own, unknown to us', async () => {
    const t = await collected(2_500, '2026-03-12');
    const charge = (operatorTxId: string) => ({ ...record(t.providerReference, 2_500, '2026-03-12'), operatorTxId });
    await saveOperatorRecords(db, account, [charge('OP-first')], 'STATEMENT');
    await db.$executeRaw`UPDATE transactions SET provider_tx_id = 'OP-first' WHERE id = ${t.id}::uuid`;
    await saveOperatorRecords(db, account, [charge('OP-second')], 'STATEMENT');
    const day = await reconcileDay({ db, adapter: null }, account, '2026-03-12');
    expect(day).toMatchObject({
      matched: 1,
      open_cases: 1,
      by_category: { UNKNOWN_TO_US: { count: 1, amount: 2_500 } },
    });
    expect(
      await db.reconciliationCase.findMany({
        where: { businessDate: new Date('2026-03-12') },
        select: { recordKey: true, category: true, difference: true },
      }),
    ).toEqual([{ recordKey: 'op:OP-second', category: 'UNKNOWN_TO_US', difference: 2_500n }]);
    // The same statement again changes nothing.
    await saveOperatorRecords(db, account, [charge('OP-first'), charge('OP-second')], 'STATEMENT');
    expect(await reconcileDay({ db, adapter: null }, account, '2026-03-12')).toMatchObject({
      matched: 1,
      open_cases: 1,
    });
  });
});
