import fc from 'fast-check';
import {
  DomainError,
  isAllowedTransition,
  NOTIFIED_STATUSES,
  type OperatorResult,
  type TransactionStatus,
} from '@mm/domain';
import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { verifyLedger } from './index.js';
import { completeRefund, createRefund, applyOperatorResult, createCashin, transition } from '../payments/index.js';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';

const RESULTS: Record<string, OperatorResult> = {
  ok: { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'PTX', failureReason: null },
  cancel: { providerState: 'canceled', providerTxnStatus: null, providerTxId: null, failureReason: null },
  balance: { providerState: 'canceled', providerTxnStatus: '54321', providerTxId: null, failureReason: '60019' },
  ko: { providerState: 'KO', providerTxnStatus: '40001', providerTxId: null, failureReason: null },
};

type Op =
  | { kind: 'ack'; i: number }
  | { kind: 'result'; i: number; result: keyof typeof RESULTS; copies: number }
  | { kind: 'expire'; i: number }
  | { kind: 'refund'; i: number; share: number; concurrent: boolean }
  | { kind: 'settle'; k: number; ok: boolean; copies: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('ack' as const), i: fc.nat(3) }),
  fc.record({
    kind: fc.constant('result' as const),
    i: fc.nat(3),
    result: fc.constantFrom('ok', 'cancel', 'balance', 'ko'),
    copies: fc.integer({ min: 1, max: 2 }),
  }),
  fc.record({ kind: fc.constant('expire' as const), i: fc.nat(3) }),
  {
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      i: fc.nat(3),
      share: fc.double({ min: 0.05, max: 1, noNaN: true }),
      concurrent: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      k: fc.nat(7),
      ok: fc.boolean(),
      copies: fc.integer({ min: 1, max: 2 }),
    }),
    weight: 2,
  },
);

/** Where a cash-in starts, so that refunds (which need SUCCESS) are reached often. */
const START = fc.constantFrom('CREATED', 'PENDING', 'SUCCESS', 'SUCCESS', 'EXPIRED');

const EXPECTED_REFUSALS = new Set(['INVALID_STATE', 'REFUND_EXCEEDS_AMOUNT', 'INSUFFICIENT_BALANCE']);

describe('ledger and state machine under random interleavings', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ databaseUrl: database.url, poolSize: 6 });
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  async function refund(merchantId: string, transactionId: string, amount: number, refunds: string[]) {
    try {
      const r = await createRefund(db, {
        merchantId,
        transactionId,
        amount,
        reason: null,
        idempotencyKey: null,
        requestFingerprint: 'p',
      });
      refunds.push(r.refund.id);
    } catch (err) {
      if (!(err instanceof DomainError) || !EXPECTED_REFUSALS.has(err.code)) throw err;
    }
  }

  async function execute(o: Op, merchantId: string, txs: { id: string; amount: number }[], refunds: string[]) {
    const t = txs[o.kind === 'settle' ? 0 : o.i % txs.length]!;
    switch (o.kind) {
      case 'ack':
        await db.$transaction(async (tx) => {
          await transition(tx, { transactionId: t.id, to: 'INITIATED', cause: 'prop' });
          await transition(tx, { transactionId: t.id, to: 'PENDING', cause: 'prop' });
        });
        return;
      case 'result':
        // Duplicate callbacks race each other.
        await Promise.all(
          Array.from({ length: o.copies }, () =>
            db.$transaction((tx) => applyOperatorResult(tx, t.id, RESULTS[o.result]!, 'prop')),
          ),
        );
        return;
      case 'expire':
        await db.$transaction((tx) => transition(tx, { transactionId: t.id, to: 'EXPIRED', cause: 'prop' }));
        return;
      case 'refund': {
        const amount = Math.max(1, Math.floor(t.amount * o.share));
        await Promise.all(
          Array.from({ length: o.concurrent ? 2 : 1 }, () => refund(merchantId, t.id, amount, refunds)),
        );
        return;
      }
      case 'settle': {
        const id = refunds[o.k % Math.max(refunds.length, 1)];
        if (!id) return;
        const outcome = o.ok
          ? { status: 'SUCCESS' as const, providerRefundId: 'RF' }
          : { status: 'FAILED' as const, failureReason: 'REFUND_REJECTED' };
        await Promise.all(
          Array.from({ length: o.copies }, () => db.$transaction((tx) => completeRefund(tx, id, outcome))),
        );
      }
    }
  }

  it('keeps balances equal to the journal, refunds within the amount, only allowed moves, one webhook per terminal change', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 100, max: 20_000 }), START), { minLength: 1, maxLength: 4 }),
        fc.array(op, { maxLength: 14 }),
        async (cashins, ops) => {
          const { id: merchantId } = await createMerchant(db, {
            name: `prop-${++run}`,
            webhookUrl: 'https://merchant.example/hooks',
          });
          const txs = [];
          for (const [i, [amount, start]] of cashins.entries()) {
            const c = await createCashin(db, {
              merchantId,
              merchantOrderId: `o${i}`,
              amount,
              currency: 'XOF',
              countryCode: 'CI',
              msisdn: '+2250707000001',
              motif: null,
              returnUrl: null,
              notifyUrl: null,
              metadata: null,
              requestFingerprint: `f${i}`,
            });
            const t = { id: c.transaction.id, amount };
            txs.push(t);
            if (start !== 'CREATED') await execute({ kind: 'ack', i }, merchantId, txs, []);
            if (start === 'SUCCESS') await execute({ kind: 'result', i, result: 'ok', copies: 1 }, merchantId, txs, []);
            if (start === 'EXPIRED') await execute({ kind: 'expire', i }, merchantId, txs, []);
          }
          const refunds: string[] = [];
          for (const o of ops) await execute(o, merchantId, txs, refunds);

          const report = await verifyLedger(db);
          expect(report.problems).toEqual([]);
          for (const t of txs) {
            const events = await db.transactionEvent.findMany({
              where: { transactionId: t.id },
              orderBy: { id: 'asc' },
            });
            for (const e of events.slice(1))
              expect(isAllowedTransition(e.fromStatus as TransactionStatus, e.toStatus as TransactionStatus)).toBe(
                true,
              );
            const terminalMoves = events.filter((e) =>
              NOTIFIED_STATUSES.includes(e.toStatus as TransactionStatus),
            ).length;
            expect(
              await db.webhookEvent.count({ where: { transactionId: t.id, eventType: 'transaction.status_changed' } }),
            ).toBe(terminalMoves);
            const decidedRefunds = await db.refund.count({
              where: { transactionId: t.id, status: { not: 'PENDING' } },
            });
            expect(
              await db.webhookEvent.count({ where: { transactionId: t.id, eventType: 'refund.status_changed' } }),
            ).toBe(decidedRefunds);
            const row = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
            expect(Number(row.refundReservedAmount)).toBeLessThanOrEqual(t.amount);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
