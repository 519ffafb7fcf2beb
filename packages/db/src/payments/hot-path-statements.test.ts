import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { applyOperatorResult, applyOperatorResultIfUnchanged } from './moves/apply-operator-result.js';
import { createCashin } from './create-cashin.js';
import { moveNow } from './moves/move-now.js';
import { recordDeliveryOutcome } from '../webhooks/index.js';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';

/**
 * What one cash-in costs the database, step by step: every statement is a round trip, CPU in the
 * service that sends it and in PostgreSQL, on the path every payment takes. A change that adds one
 * to a step fails here and has to say why (docs/performance.md, docs/performance-log.md).
 */
describe('statements per step of a cash-in', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  let merchantId: string;
  const sent: string[] = [];
  beforeAll(async () => {
    fixture = await createDbTestDatabase();
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(fixture.db, s);
    merchantId = (await createMerchant(fixture.db, { name: 'M', webhookUrl: 'https://merchant.example/hooks' })).id;
    db = createDb({ databaseUrl: fixture.database.url, poolSize: 2, onQuery: (q) => sent.push(q) });
  });
  afterAll(async () => {
    await db.$disconnect();
    await fixture.close();
  });
  async function counted<T>(step: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    sent.length = 0;
    const result = await step();
    return { result, statements: [...sent] };
  }
  // Prisma reports the COMMIT of an interactive transaction but not its BEGIN: a COMMIT means both.
  const kinds = (statements: string[]) =>
    statements.map((q) => /^\s*(BEGIN|COMMIT)/i.exec(q)?.[1]?.toUpperCase() ?? 'statement');

  it('created: 1 statement; handed over and acknowledged: 1 each; captured: 2 in a transaction; delivered: 1', async () => {
    const created = await counted(() =>
      createCashin(db, {
        merchantId,
        merchantOrderId: 'budget-1',
        amount: 1000,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250707000001',
        motif: null,
        returnUrl: null,
        notifyUrl: null,
        metadata: null,
        requestFingerprint: 'fp',
      }),
    );
    if (created.result.kind !== 'created') throw new Error('not created');
    const {
      transaction: t,
      outbox: [request],
    } = created.result;
    expect(kinds(created.statements)).toEqual(['statement']);

    const handed = await counted(() =>
      moveNow(db, {
        transactionId: t.id,
        to: 'INITIATED',
        from: ['CREATED'],
        ofType: 'CASHIN',
        cause: 'operator-request',
      }),
    );
    expect(kinds(handed.statements)).toEqual(['statement']);
    const acknowledged = await counted(() =>
      moveNow(
        db,
        {
          transactionId: t.id,
          to: 'PENDING',
          ofType: 'CASHIN',
          cause: 'operator-ack',
          patch: { providerState: 'PENDING', expiresAt: new Date(Date.now() + 300_000) },
        },
        { completesOutbox: request!.id },
      ),
    );
    expect(kinds(acknowledged.statements)).toEqual(['statement']);

    const captured = await counted(() =>
      db.$transaction((tx) =>
        applyOperatorResult(
          tx,
          t.id,
          {
            providerState: 'OK',
            providerTxnStatus: '200',
            providerTxId: 'TX1',
            failureReason: null,
          },
          'operator-result:callback',
        ),
      ),
    );
    expect(captured.result?.transaction.status).toBe('SUCCESS');
    expect(kinds(captured.statements)).toEqual(['statement', 'statement', 'COMMIT']);

    const job = captured.result!.outbox.find((r) => r.topic === 'webhook-deliveries')!;
    const now = new Date();
    const delivered = await counted(() =>
      recordDeliveryOutcome(db, {
        eventId: (job.payload as { event_id: string }).event_id,
        outboxId: job.id,
        attempt: {
          attemptNo: 1,
          targetUrl: 'https://merchant.example/hooks',
          statusCode: 200,
          latencyMs: 5,
          error: null,
          errorDetail: null,
          attemptedAt: now,
          finishedAt: now,
        },
        outcome: { kind: 'delivered' },
      }),
    );
    expect(delivered.result.recordedAs).toBe('DELIVERED');
    expect(kinds(delivered.statements)).toEqual(['statement']);
  });

  it('captured by the process that saw it acknowledged: 1 statement, no transaction around it', async () => {
    const created = await createCashin(db, {
      merchantId,
      merchantOrderId: 'budget-2',
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'fp2',
    });
    if (created.kind !== 'created') throw new Error('not created');
    const t = created.transaction;
    await moveNow(db, { transactionId: t.id, to: 'INITIATED', ofType: 'CASHIN', cause: 'operator-request' });
    const acknowledged = await moveNow(db, {
      transactionId: t.id,
      to: 'PENDING',
      ofType: 'CASHIN',
      cause: 'operator-ack',
      patch: { providerState: 'PENDING' },
    });
    const captured = await counted(() =>
      applyOperatorResultIfUnchanged(
        db,
        acknowledged!.seen!,
        {
          providerState: 'OK',
          providerTxnStatus: '200',
          providerTxId: 'TX2',
          failureReason: null,
        },
        'operator-result:callback',
      ),
    );
    expect(captured.result).toMatchObject({ transaction: { status: 'SUCCESS' } });
    expect(kinds(captured.statements)).toEqual(['statement']);
  });
});
