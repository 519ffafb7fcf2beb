import { Writable } from 'node:stream';
import { createDb, type Db } from '@mm/db';
import { createCashin, transition } from '@mm/db/payments';
import { createLogger } from '@mm/observability';
import type { OperatorAdapter } from '@mm/operators';
import type { OperatorResultJob } from '@mm/queues';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing';
import { operatorResultsHandler } from './operator-results.js';
import { oneAdapter } from '@mm/operators/testing';
import { noEffects } from '@mm/worker-runtime/testing';

const noStatus = {
  queryStatus: async () => {
    throw new Error('no status query expected');
  },
};
type Status = Awaited<ReturnType<OperatorAdapter['queryStatus']>>;

describe('operator result for a cash-in that is already final', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(
    'test',
    'info',
    new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function failedCashin(order: string, failureCode: string) {
    const r = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000055',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    await db.$transaction((tx) =>
      transition(tx, { transactionId: r.transaction.id, to: 'FAILED', cause: 'test', patch: { failureCode } }),
    );
    return r.transaction;
  }
  const result = (
    reference: string,
    state: OperatorResultJob['provider_state'],
    txnStatus: string | null = state === 'OK' ? '200' : null,
  ): OperatorResultJob => ({
    provider_reference: reference,
    provider_state: state,
    provider_txn_status: txnStatus,
    provider_tx_id: state === 'OK' ? 'MP9' : null,
    provider_session_id: null,
    failure_reason: null,
    source: 'callback',
  });

  it('an OK for a FAILED cash-in leaves the cash-in as it is and starts one return to the customer; a repeat starts nothing more', async () => {
    const t = await failedCashin('captured-but-failed', 'OPERATOR_UNAVAILABLE');
    const before = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
    let counted = 0;
    let held = 0;
    const published: unknown[] = [];
    const afterCommit = {
      run: async (changes: ({ outbox: unknown[] } | null)[]) => {
        for (const c of changes) published.push(...(c?.outbox ?? []));
      },
    };
    const handle = operatorResultsHandler({
      db,
      afterCommit: afterCommit as unknown as typeof noEffects,
      logger,
      adapters: oneAdapter(noStatus),
      onCapturedButFailed: () => {
        counted++;
      },
      onLateSuccessHeld: () => {
        held++;
      },
    });
    await handle(result(t.providerReference, 'OK'));
    await handle(result(t.providerReference, 'OK'));
    expect({ counted, held }).toEqual({ counted: 2, held: 1 });
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toEqual(before);
    const [ret, ...others] = await db.refund.findMany({ where: { transactionId: t.id } });
    expect(others).toEqual([]);
    expect(ret).toMatchObject({
      origin: 'LATE_SUCCESS',
      status: 'PENDING',
      amount: 1000n,
      originalProviderTxId: 'MP9',
    });
    expect(published).toEqual([expect.objectContaining({ topic: 'refund-requests', payload: { refund_id: ret!.id } })]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        transaction_id: t.id,
        providerReference: t.providerReference,
        refund_id: ret!.id,
        msg: 'operator confirmed a payment that is FAILED here: its money is held in suspense and returned to the customer',
      }),
    );
    expect(lines.filter((l) => l.level === 50)).toEqual([]);
  });

  it('a signed result for a reference nobody knows changes nothing and is logged', async () => {
    lines.length = 0;
    const before = await db.transaction.count();
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(noStatus) })(
      result('MM-NOBODY-KNOWS', 'OK'),
    );
    expect(await db.transaction.count()).toBe(before);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        providerReference: 'MM-NOBODY-KNOWS',
        msg: 'operator result for an unknown reference ignored',
      }),
    );
  });

  it('a duplicate cancel of a FAILED cash-in is just a duplicate: no error', async () => {
    const t = await failedCashin('cancel-twice', 'CUSTOMER_DID_NOT_VALIDATE');
    lines.length = 0;
    let counted = 0;
    await operatorResultsHandler({
      db,
      afterCommit: noEffects,
      logger,
      adapters: oneAdapter(noStatus),
      onCapturedButFailed: () => {
        counted++;
      },
    })(result(t.providerReference, 'canceled'));
    expect(lines.filter((l) => l.level === 50)).toEqual([]);
    expect(counted).toBe(0);
  });
});

describe('operator result OK without its 200', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  const logger = createLogger('test', 'silent');
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  async function pendingCashin(order: string, operator = 'SIMULATOR') {
    const r = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000056',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
      operator,
    });
    if (r.kind !== 'created') throw new Error('not created');
    await db.$transaction((tx) => transition(tx, { transactionId: r.transaction.id, to: 'INITIATED', cause: 'test' }));
    await db.$transaction((tx) =>
      transition(tx, {
        transactionId: r.transaction.id,
        to: 'PENDING',
        cause: 'test',
        patch: { providerState: 'PENDING' },
      }),
    );
    return r.transaction;
  }
  const okWithout200 = (reference: string): OperatorResultJob => ({
    provider_reference: reference,
    provider_state: 'OK',
    provider_txn_status: null,
    provider_tx_id: 'MP7',
    provider_session_id: null,
    failure_reason: null,
    source: 'callback',
  });
  const statusSays = (s: Omit<Status, 'found'> & { found?: boolean }) => ({
    queryStatus: async () => ({ found: true, ...s }),
  });

  it('is not credited when the status query does not confirm it: the cash-in stays PENDING', async () => {
    const t = await pendingCashin('ok-null-unconfirmed');
    let asked = 0;
    const adapter = {
      queryStatus: async () => {
        asked++;
        return {
          found: true,
          providerState: 'PENDING' as const,
          providerTxnStatus: null,
          providerTxId: null,
          failureReason: null,
        };
      },
    };
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(
      okWithout200(t.providerReference),
    );
    expect(asked).toBe(1);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      providerTxId: null,
    });
  });

  it('is not credited when the status query fails either', async () => {
    const t = await pendingCashin('ok-null-no-answer');
    const adapter = {
      queryStatus: async () => {
        throw new Error('down');
      },
    };
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(
      okWithout200(t.providerReference),
    );
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING');
  });

  it('takes the status answer when it decides: OK / 200 is a SUCCESS', async () => {
    const t = await pendingCashin('ok-null-confirmed');
    const adapter = statusSays({
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: 'MP8',
      failureReason: null,
    });
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(
      okWithout200(t.providerReference),
    );
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'SUCCESS',
      providerTxId: 'MP8',
      providerTxnStatus: '200',
    });
    expect(
      (await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'SUCCESS' } })).cause,
    ).toBe('operator-result:status-confirmation');
  });

  it('takes the status answer when it decides: canceled is a FAILED', async () => {
    const t = await pendingCashin('ok-null-canceled');
    const adapter = statusSays({
      providerState: 'canceled',
      providerTxnStatus: null,
      providerTxId: null,
      failureReason: null,
    });
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(
      okWithout200(t.providerReference),
    );
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'FAILED',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
  });

  const hint = (reference: string): OperatorResultJob => ({
    provider_reference: reference,
    provider_state: 'PENDING',
    provider_txn_status: null,
    provider_tx_id: null,
    provider_session_id: null,
    failure_reason: null,
    source: 'hint',
  });

  it("a hint (an unsigned callback) applies only what the operator's status then says, with its normalised cause", async () => {
    const t = await pendingCashin('hint-failed');
    const adapter = statusSays({
      providerState: 'canceled',
      providerTxnStatus: 'NOT_ENOUGH_FUNDS',
      providerTxId: null,
      failureReason: 'NOT_ENOUGH_FUNDS',
      failureCode: 'INSUFFICIENT_BALANCE',
    });
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(
      hint(t.providerReference),
    );
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'FAILED',
      providerTxnStatus: 'NOT_ENOUGH_FUNDS',
      failureCode: 'INSUFFICIENT_BALANCE',
    });
  });

  it('a hint whose status is still PENDING changes nothing', async () => {
    const t = await pendingCashin('hint-pending');
    const adapter = statusSays({
      providerState: 'PENDING',
      providerTxnStatus: null,
      providerTxId: null,
      failureReason: null,
    });
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(
      hint(t.providerReference),
    );
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING');
  });

  it('a hint whose status query fails throws, so the job is retried: it may be the only news of a late payment', async () => {
    const t = await pendingCashin('hint-unanswered');
    const adapter = {
      queryStatus: async () => {
        throw new Error('operator down');
      },
    };
    await expect(
      operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(
        hint(t.providerReference),
      ),
    ).rejects.toThrow('operator down');
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING');
  });

  it("a result signed by another operator than the payment's (the simulator's secret for an MTN cash-in) is not applied: only the payment's own operator is asked", async () => {
    const t = await pendingCashin('foreign-signature', 'MTN');
    let asked = 0;
    const adapter = {
      queryStatus: async () => {
        asked++;
        return {
          found: true,
          providerState: 'PENDING' as const,
          providerTxnStatus: null,
          providerTxId: null,
          failureReason: null,
        };
      },
    };
    const forged: OperatorResultJob = {
      ...okWithout200(t.providerReference),
      provider_txn_status: '200',
      operator: 'SIMULATOR',
    };
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(forged);
    expect(asked).toBe(1);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      providerTxId: null,
    });
  });

  it("a result signed by the same operator's account of another country (its own secret) is not applied: only the payment's own account is asked", async () => {
    const t = await pendingCashin('other-country-signature', 'WAVE');
    let asked = 0;
    const adapter = {
      queryStatus: async () => {
        asked++;
        return {
          found: true,
          providerState: 'PENDING' as const,
          providerTxnStatus: null,
          providerTxId: null,
          failureReason: null,
        };
      },
    };
    const signedInSenegal: OperatorResultJob = {
      ...okWithout200(t.providerReference),
      provider_txn_status: '200',
      operator: 'WAVE',
      country: 'SN',
    };
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(adapter) })(
      signedInSenegal,
    );
    expect(asked).toBe(1);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      providerTxId: null,
    });
    // Signed by its own account (WAVE in CI): applied as it came.
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(noStatus) })({
      ...signedInSenegal,
      country: 'CI',
    });
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'SUCCESS',
      providerTxId: 'MP7',
    });
  });

  it("a result signed by the payment's own operator is applied as it came", async () => {
    const t = await pendingCashin('own-signature', 'WAVE');
    const signed: OperatorResultJob = {
      ...okWithout200(t.providerReference),
      provider_txn_status: '200',
      operator: 'WAVE',
    };
    await operatorResultsHandler({ db, afterCommit: noEffects, logger, adapters: oneAdapter(noStatus) })(signed);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'SUCCESS',
      providerTxId: 'MP7',
    });
  });

  it('a signed result that decides is applied in one database transaction of two statements, the row locked by its reference: no read before it', async () => {
    const t = await pendingCashin('capture-statements', 'WAVE');
    const sent: string[] = [];
    const counted = createDb({ databaseUrl: fixture.database.url, poolSize: 1, onQuery: (q) => sent.push(q) });
    try {
      const signed: OperatorResultJob = {
        ...okWithout200(t.providerReference),
        provider_txn_status: '200',
        operator: 'WAVE',
      };
      await operatorResultsHandler({ db: counted, afterCommit: noEffects, logger, adapters: oneAdapter(noStatus) })(
        signed,
      );
      // The COMMIT stands for its BEGIN (sent in the same round trip as the statement bound).
      expect(sent).toHaveLength(3);
      expect(sent[0]).toMatch(/t\.provider_reference = \$1 FOR UPDATE OF t/);
      expect(sent[1]).toMatch(/^\s*WITH moved AS \(UPDATE transactions/);
      expect(sent[2]).toBe('COMMIT');
      expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
        status: 'SUCCESS',
        providerTxId: 'MP7',
      });
    } finally {
      await counted.$disconnect();
    }
  });
});
