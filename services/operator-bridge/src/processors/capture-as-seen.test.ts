import { createDb, type Db } from '@mm/db';
import { createCashin } from '@mm/db/payments';
import { createLogger } from '@mm/observability';
import { OperatorUnavailableError, type OperatorAdapter } from '@mm/operators';
import { failingOperator, oneAdapter } from '@mm/operators/testing';
import type { AfterCommit, OperatorResultJob } from '@mm/queues';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing';
import { jobAt } from '@mm/worker-runtime/testing';
import { SeenPending } from '../seen-pending.js';
import { operatorRequestsHandler } from './operator-requests.js';
import { operatorResultsHandler } from './operator-results.js';

/** An operator that takes every push, and is never asked for a status here. */
const accepting: OperatorAdapter = {
  ...failingOperator(new OperatorUnavailableError('not expected')),
  pushUssd: async () => ({ accepted: true, providerSessionId: null }),
};

describe('the result of a cash-in this bridge process acknowledged, applied from the row as it saw it', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  /** A client on the same database that records every statement it sends. */
  let counted: Db;
  const sent: string[] = [];
  const logger = createLogger('test', 'silent');
  const published: unknown[] = [];
  const afterCommit = {
    run: async (changes: unknown[]) => {
      published.push(...changes);
    },
  } as unknown as AfterCommit;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
    await db.merchant.update({
      where: { id: fixture.merchantId },
      data: { webhookUrl: 'https://merchant.example/hooks' },
    });
    counted = createDb({ databaseUrl: fixture.database.url, poolSize: 2, onQuery: (q) => sent.push(q) });
  });
  afterAll(async () => {
    await counted.$disconnect();
    await fixture.close();
  });

  /** A cash-in pushed and acknowledged by the operator-requests processor, remembering it in `seen`. */
  async function acknowledged(order: string, seen: SeenPending) {
    const r = await createCashin(db, {
      merchantId: fixture.merchantId,
      merchantOrderId: order,
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000057',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    await operatorRequestsHandler({
      db,
      adapters: oneAdapter(accepting),
      afterCommit,
      callbackUrl: () => 'http://bridge/cb',
      confirmationTimeoutMs: 60_000,
      seenPending: seen,
    })({ outbox_id: r.outbox[0]!.id, transaction_id: r.transaction.id }, jobAt(0));
    return r.transaction;
  }
  const paid = (reference: string): OperatorResultJob => ({
    provider_reference: reference,
    provider_state: 'OK',
    provider_txn_status: '200',
    provider_tx_id: 'MP1',
    provider_session_id: null,
    failure_reason: null,
    source: 'callback',
  });
  const results = (seen: SeenPending) =>
    operatorResultsHandler({ db: counted, afterCommit, logger, adapters: oneAdapter(accepting), seenPending: seen });

  it('remembers the acknowledged row with its version, and applies a signed result from it in one statement', async () => {
    const seen = new SeenPending();
    const t = await acknowledged('as-seen-1', seen);
    expect(seen.size).toBe(1);
    sent.length = 0;
    published.length = 0;
    await results(seen)(paid(t.providerReference));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/row_changed_since_read/);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'SUCCESS',
      providerTxId: 'MP1',
    });
    expect(await db.webhookEvent.count({ where: { transactionId: t.id } })).toBe(1);
    // Its webhook job and the move reach the after-commit step, as under the lock.
    expect(published).toEqual([
      expect.objectContaining({ from: 'PENDING', outbox: [expect.objectContaining({ topic: 'webhook-deliveries' })] }),
    ]);
    expect(seen.size).toBe(0);

    // A repeat of the same result finds nothing held: the lock's path, where the state machine refuses it.
    sent.length = 0;
    await results(seen)(paid(t.providerReference));
    expect(sent[0]).toMatch(/FOR UPDATE OF t/);
    expect(await db.webhookEvent.count({ where: { transactionId: t.id } })).toBe(1);
  });

  it("takes the lock's path when the row changed since it was seen: the result is applied once, from the row as it is", async () => {
    const seen = new SeenPending();
    const t = await acknowledged('as-seen-2', seen);
    await db.transaction.update({ where: { id: t.id }, data: { providerState: 'PENDING', updatedAt: new Date() } });
    sent.length = 0;
    await results(seen)(paid(t.providerReference));
    expect(sent[0]).toMatch(/row_changed_since_read/);
    expect(sent[1]).toMatch(/FOR UPDATE OF t/);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'SUCCESS',
      providerTxId: 'MP1',
    });
    expect(await db.transactionEvent.count({ where: { transactionId: t.id, toStatus: 'SUCCESS' } })).toBe(1);
    expect(await db.webhookEvent.count({ where: { transactionId: t.id } })).toBe(1);
  });

  it('makes a result that arrives while its push is under way wait for the acknowledgement, then applies it as seen', async () => {
    const seen = new SeenPending();
    const r = await createCashin(db, {
      merchantId: fixture.merchantId,
      merchantOrderId: 'as-seen-early',
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000057',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'as-seen-early',
    });
    if (r.kind !== 'created') throw new Error('not created');
    let early: Promise<void> | null = null;
    // The operator calls back before its answer to the push is read, as the simulator does.
    const callsBackFirst: OperatorAdapter = {
      ...accepting,
      pushUssd: async () => {
        early = results(seen)(paid(r.transaction.providerReference));
        await new Promise((resolve) => setImmediate(resolve));
        return { accepted: true, providerSessionId: null };
      },
    };
    sent.length = 0;
    await operatorRequestsHandler({
      db,
      adapters: oneAdapter(callsBackFirst),
      afterCommit,
      callbackUrl: () => 'http://bridge/cb',
      confirmationTimeoutMs: 60_000,
      seenPending: seen,
    })({ outbox_id: r.outbox[0]!.id, transaction_id: r.transaction.id }, jobAt(0));
    await early;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/row_changed_since_read/);
    const history = await db.transactionEvent.findMany({
      where: { transactionId: r.transaction.id },
      orderBy: { id: 'asc' },
    });
    expect(history.map((e) => `${e.fromStatus}->${e.toStatus}`)).toEqual([
      'null->CREATED',
      'CREATED->INITIATED',
      'INITIATED->PENDING',
      'PENDING->SUCCESS',
    ]);
  });

  it("never applies as seen a result signed by another operator than the payment's", async () => {
    const seen = new SeenPending();
    const t = await acknowledged('as-seen-3', seen);
    const asked: string[] = [];
    const handler = operatorResultsHandler({
      db: counted,
      afterCommit,
      logger,
      seenPending: seen,
      adapters: oneAdapter({
        queryStatus: async () => {
          asked.push(t.providerReference);
          return {
            found: true,
            providerState: 'PENDING' as const,
            providerTxnStatus: null,
            providerTxId: null,
            failureReason: null,
          };
        },
      }),
    });
    sent.length = 0;
    await handler({ ...paid(t.providerReference), operator: 'WAVE' });
    expect(sent.some((q) => /row_changed_since_read/.test(q))).toBe(false);
    expect(asked).toEqual([t.providerReference]);
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('PENDING');
  });
});

describe('SeenPending', () => {
  const row = (ref: string) => ({ providerReference: ref }) as Parameters<SeenPending['remember']>[0];

  it('gives a row once, and forgets the oldest past its bound', async () => {
    const seen = new SeenPending(2);
    seen.remember(row('a'));
    seen.remember(row('b'));
    seen.remember(row('c'));
    expect(seen.size).toBe(2);
    expect(await seen.take('a')).toBeUndefined();
    expect(await seen.take('b')).toEqual(row('b'));
    expect(await seen.take('b')).toBeUndefined();
    expect(await seen.take('c')).toEqual(row('c'));
  });

  it('makes a result for a push under way wait for its acknowledgement, and no longer than its bound', async () => {
    const seen = new SeenPending(10, 60_000);
    const over = seen.pushing('a');
    const taken = seen.take('a');
    let settled = false;
    void taken.then(() => {
      settled = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    seen.remember(row('a'));
    over();
    expect(await taken).toEqual(row('a'));

    const bounded = new SeenPending(10, 5);
    bounded.pushing('b');
    expect(await bounded.take('b')).toBeUndefined();
  });
});
