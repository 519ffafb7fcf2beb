import type { Db } from '@mm/db';
import { createCashin, transition, type TransitionPatch } from '@mm/db/payments';
import { PENDING_CAUSES, type OperatorResult, type PendingCause } from '@mm/domain';
import type { ExpiryCheckJob } from '@mm/queues';
import { createLogger } from '@mm/observability';
import { OperatorUnavailableError, type OperatorAdapter } from '@mm/operators';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing';
import { expiryChecksHandler } from './expiry-checks.js';
import { oneAdapter } from '@mm/operators/testing';
import { jobAt, noEffects } from '@mm/worker-runtime/testing';

// The adapter interface's fake: the status answers the simulator cannot give on demand.
function operatorAnswering(status: (OperatorResult & { found: boolean }) | Error): OperatorAdapter {
  const fail = async () => {
    throw new Error('not used');
  };
  return {
    name: 'fake',
    pushUssd: fail,
    refund: fail,
    disburse: fail,
    parseCallback: () => null,
    queryStatus: async () => {
      if (status instanceof Error) throw status;
      return status;
    },
  };
}
/** A cash-in moved to PENDING with `patch`: its id and the one check row the move wrote. */
async function pendingCashin(db: Db, merchantId: string, order: string, cause: string, patch: TransitionPatch) {
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
  const id = r.transaction.id;
  await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'INITIATED', cause: 'test' }));
  const moved = await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'PENDING', cause, patch }));
  expect(moved!.outbox).toHaveLength(1);
  return { id, outboxId: moved!.outbox[0]!.id };
}

const notFound = {
  found: false,
  providerState: 'PENDING',
  providerTxnStatus: null,
  providerTxId: null,
  failureReason: null,
} as const;
const ok = {
  found: true,
  providerState: 'OK',
  providerTxnStatus: '200',
  providerTxId: 'MP7',
  failureReason: null,
} as const;
const lastTry = jobAt(5, 6);

describe('expiry check of a PENDING cash-in', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
  });
  afterAll(async () => {
    await fixture.close();
  });

  /**
   * A PENDING cash-in as the bridge moved it: acknowledged (operator-ack), adopted after a timeout because the
   * status knew it, or with its outcome unknown; with the operator's session id when it gave one (MTN never does).
   */
  const pendingAs = (order: string, cause: PendingCause, sessionId: string | null) =>
    pendingCashin(db, fixture.merchantId, order, cause, { providerSessionId: sessionId, expiresAt: new Date() });
  const pending = (order: string, sessionId: string | null) =>
    pendingAs(order, sessionId ? PENDING_CAUSES.acknowledged : PENDING_CAUSES.outcomeUnknown, sessionId);
  const check = (adapter: OperatorAdapter, t: { id: string; outboxId: string }) =>
    expiryChecksHandler({
      db,
      adapters: oneAdapter(adapter),
      afterCommit: noEffects,
      logger: createLogger('test', 'silent'),
    })({ outbox_id: t.outboxId, transaction_id: t.id, kind: 'expiry' }, lastTry);
  const row = (id: string) => db.transaction.findUniqueOrThrow({ where: { id } });

  it('fails OPERATOR_UNAVAILABLE a push whose outcome was unknown and that the operator says it never received', async () => {
    const t = await pending('unknown-not-found', null);
    await check(operatorAnswering(notFound), t);
    expect(await row(t.id)).toMatchObject({ status: 'FAILED', failureCode: 'OPERATOR_UNAVAILABLE' });
    expect(
      (await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'FAILED' } })).cause,
    ).toBe('expiry-check:operator-unknown');
  });

  it('credits a push whose outcome was unknown and that the customer confirmed', async () => {
    const t = await pending('unknown-ok', null);
    await check(operatorAnswering(ok), t);
    expect(await row(t.id)).toMatchObject({ status: 'SUCCESS', providerTxId: 'MP7' });
  });

  it('expires a push whose outcome was unknown while the operator stays silent: a late OK can still credit it', async () => {
    const t = await pending('unknown-silent', null);
    await check(operatorAnswering(new OperatorUnavailableError('down')), t);
    expect(await row(t.id)).toMatchObject({ status: 'EXPIRED', failureCode: null });
  });

  it('a check of a cash-in that ended meanwhile, or expired and was then credited late, asks the operator nothing and marks its row done', async () => {
    // An answer that would do something if it were asked for (a final attempt goes on without one).
    let questions = 0;
    const asked = {
      ...operatorAnswering(ok),
      queryStatus: async () => {
        questions += 1;
        return ok;
      },
    };
    const ended = await pending('ended-before-check', 'SES-2');
    await db.$transaction((tx) => transition(tx, { transactionId: ended.id, to: 'SUCCESS', cause: 'test' }));
    const late = await pending('credited-late', 'SES-3');
    await db.$transaction((tx) => transition(tx, { transactionId: late.id, to: 'EXPIRED', cause: 'test' }));
    await db.$transaction((tx) => transition(tx, { transactionId: late.id, to: 'SUCCESS', cause: 'test' }));
    for (const t of [ended, late]) {
      await check(asked, t);
      expect(await row(t.id)).toMatchObject({ status: 'SUCCESS' });
      expect((await db.outbox.findUniqueOrThrow({ where: { id: t.outboxId } })).completedAt).toBeInstanceOf(Date);
    }
    expect(questions).toBe(0);
  });

  it('expires an acknowledged push without a session id (MTN gives none) that the operator no longer knows: a late payment can still credit it', async () => {
    const t = await pendingAs('acked-no-session-not-found', PENDING_CAUSES.acknowledged, null);
    await check(operatorAnswering(notFound), t);
    expect(await row(t.id)).toMatchObject({ status: 'EXPIRED', failureCode: null });
    expect(
      (await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'EXPIRED' } })).cause,
    ).toBe('expiry');
  });

  it("expires a push adopted after its timeout because the operator's status knew it, when the operator no longer knows it", async () => {
    const t = await pendingAs('known-after-timeout-not-found', PENDING_CAUSES.knownAfterTimeout, null);
    await check(operatorAnswering(notFound), t);
    expect(await row(t.id)).toMatchObject({ status: 'EXPIRED', failureCode: null });
  });

  it("fails OPERATOR_UNAVAILABLE a push whose outcome was unknown although its operator id was stored before it (Orange mp's pay token)", async () => {
    const t = await pendingAs('unknown-with-pay-token', PENDING_CAUSES.outcomeUnknown, 'MP260101ABCDEF0123');
    await check(operatorAnswering(notFound), t);
    expect(await row(t.id)).toMatchObject({
      status: 'FAILED',
      failureCode: 'OPERATOR_UNAVAILABLE',
      providerSessionId: 'MP260101ABCDEF0123',
    });
    expect(
      (await db.transactionEvent.findFirstOrThrow({ where: { transactionId: t.id, toStatus: 'FAILED' } })).cause,
    ).toBe('expiry-check:operator-unknown');
  });

  it('expires an acknowledged push the operator no longer knows, as before', async () => {
    const t = await pending('acked-not-found', 'SES-1');
    await check(operatorAnswering(notFound), t);
    expect(await row(t.id)).toMatchObject({ status: 'EXPIRED' });
  });
});

describe('status polls of a PENDING cash-in, one check at a time', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
  });
  afterAll(async () => {
    await fixture.close();
  });

  const stillPending = {
    found: true,
    providerState: 'PENDING',
    providerTxnStatus: null,
    providerTxId: null,
    failureReason: null,
  } as const;
  const soon = (s: number) => new Date(Date.now() + s * 1000);
  const expiresAt = soon(300);

  /** A PENDING cash-in with polls at 60 s and 150 s: its one check row. */
  const polled = (order: string) =>
    pendingCashin(db, fixture.merchantId, order, 'operator-ack', {
      providerSessionId: `S-${order}`,
      expiresAt,
      pollAt: [soon(150), soon(60)],
    });
  const checkRow = (outboxId: string) => db.outbox.findUniqueOrThrow({ where: { id: outboxId } });
  const checkOf = (row: { payload: unknown }) => row.payload as ExpiryCheckJob;
  const run = async (adapter: OperatorAdapter, outboxId: string, job = jobAt(0, 6)) => {
    const row = await checkRow(outboxId);
    await expiryChecksHandler({
      db,
      adapters: oneAdapter(adapter),
      afterCommit: noEffects,
      logger: createLogger('test', 'silent'),
    })({ ...checkOf(row), outbox_id: outboxId }, job);
  };

  it('a poll that finds the customer still deciding moves its row to the next poll, then the last poll to the expiry', async () => {
    const t = await polled('chain');
    const first = await checkRow(t.outboxId);
    // The first poll is the check; the later one rides on it; the expiry comes from the row's expires_at.
    const [later] = checkOf(first).next_polls!;
    expect(first.payload).toEqual({ transaction_id: t.id, kind: 'poll', next_polls: [later] });
    expect(new Date(later!).getTime() - first.availableAt.getTime()).toBeGreaterThan(80_000);
    await run(operatorAnswering(stillPending), t.outboxId);
    const second = await checkRow(t.outboxId);
    expect(second).toMatchObject({
      run: 1,
      completedAt: null,
      payload: { transaction_id: t.id, kind: 'poll', next_polls: [] },
    });
    expect(second.availableAt.toISOString()).toBe(checkOf(first).next_polls![0]);

    await run(operatorAnswering(stillPending), t.outboxId);
    expect(await checkRow(t.outboxId)).toMatchObject({
      run: 2,
      completedAt: null,
      availableAt: expiresAt,
      payload: { transaction_id: t.id, kind: 'expiry' },
    });
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING');
  });

  it('the same poll run twice (a stalled job, a re-publication) moves the row on once', async () => {
    const t = await polled('twice');
    const payload = { ...checkOf(await checkRow(t.outboxId)), outbox_id: t.outboxId };
    const handler = expiryChecksHandler({
      db,
      adapters: oneAdapter(operatorAnswering(stillPending)),
      afterCommit: noEffects,
      logger: createLogger('test', 'silent'),
    });
    await handler(payload, jobAt(0, 6));
    const once = await checkRow(t.outboxId);
    await handler(payload, jobAt(0, 6));
    expect(await checkRow(t.outboxId)).toEqual(once);
    expect(once).toMatchObject({ run: 1, completedAt: null, payload: { kind: 'poll', next_polls: [] } });
  });

  it('a poll that cannot reach the operator, out of attempts, gives way to the next check', async () => {
    const t = await polled('unreachable');
    await run(operatorAnswering(new OperatorUnavailableError('down')), t.outboxId, lastTry);
    expect(await checkRow(t.outboxId)).toMatchObject({
      run: 1,
      completedAt: null,
      payload: { kind: 'poll', next_polls: [] },
    });
  });

  it('a poll that finds the payment decided applies it and ends the chain', async () => {
    const t = await polled('decided');
    await run(operatorAnswering(ok), t.outboxId);
    expect(await checkRow(t.outboxId)).toMatchObject({ run: 0, completedAt: expect.any(Date) });
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('SUCCESS');
  });

  it('a poll of a row written when each check had its own row is that check alone', async () => {
    const t = await polled('legacy');
    await db.outbox.update({ where: { id: t.outboxId }, data: { payload: { transaction_id: t.id, kind: 'poll' } } });
    await run(operatorAnswering(stillPending), t.outboxId);
    expect(await checkRow(t.outboxId)).toMatchObject({
      run: 0,
      completedAt: expect.any(Date),
      payload: { kind: 'poll' },
    });
  });
});
