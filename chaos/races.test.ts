import { waitFor } from '@mm/testing';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { settle, violations } from './support/invariants.js';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Scenario 6: races across processes. 50 identical cash-ins at once; 20 partial refunds of one
 * transaction at once; operator callbacks racing the expiry check (the customer confirms just as the
 * confirmation delay runs out).
 */
let sys: ChaosSystem;

beforeAll(async () => {
  // The customer answers after 1 s and the confirmation delay is 1 s: callbacks and expiry checks race.
  // Numbers ending 09 confirm after 3 s: always after the expiry, the late confirmation path.
  sys = await startChaosSystem({
    suite: 'races',
    confirmationTimeoutS: 1,
    outcomeDelayMs: 1000,
    lateConfirmDelayMs: 3000,
  });
});
afterAll(async () => {
  await sys?.stop();
});

const now = () => Math.floor(Date.now() / 1000);

it('50 concurrent identical cash-ins: one transaction, one push, the same transaction in every answer', async () => {
  const body = { merchant_order_id: 'race-same', amount: 4100, customer_msisdn: '+2250707000001' };
  // The same body signed at 50 different seconds: 50 distinct requests, as 50 retries of a merchant would be.
  const base = now();
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      sys.api('POST', '/api/v1/payments/cashin', body, { timestamp: String(base - i) }),
    ),
  );
  expect(answers.map((a) => a.status).sort()).toEqual([...Array(49).fill(200), 202]);
  expect(new Set(answers.map((a) => a.body.data.transaction_id)).size).toBe(1);
  expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);

  const t = await sys.db.transaction.findFirstOrThrow({ where: { merchantOrderId: 'race-same' } });
  await settle(sys);
  expect(await sys.db.transaction.count({ where: { merchantOrderId: 'race-same' } })).toBe(1);
  expect((await sys.simulator.pushes()).get(t.providerReference)).toMatchObject({ push_count: 1 });
  expect(await violations(sys)).toEqual([]);
});

it('20 concurrent partial refunds of one transaction: never more than its amount, each accepted one paid once', async () => {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: 'race-refunds',
    amount: 10_000,
    customer_msisdn: '+2250707000001',
  });
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await sys.db.transaction.findUniqueOrThrow({ where: { id } })).status === 'SUCCESS', {
    what: 'cash-in SUCCESS',
    timeoutMs: 20_000,
  });

  // 20 x 700 = 14 000 > 10 000: exactly 14 fit.
  // As a merchant sends them: a 503 (the row held by the others past the gateway's lock limit, on a
  // loaded machine) is sent again after its Retry-After, under the same Idempotency-Key.
  const answers = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      for (;;) {
        const a = await sys.api(
          'POST',
          '/api/v1/refunds',
          { transaction_id: id, amount: 700, reason: `race ${i}` },
          { extraHeaders: { 'Idempotency-Key': `race-${i}` } },
        );
        if (a.status !== 503) return a;
        await new Promise((r) => setTimeout(r, Number(a.headers.get('retry-after')) * 1000));
      }
    }),
  );
  expect(answers.filter((a) => a.status === 202)).toHaveLength(14);
  expect(answers.filter((a) => a.status === 422).map((a) => a.body.error.code)).toEqual(
    Array(6).fill('REFUND_EXCEEDS_AMOUNT'),
  );

  await settle(sys);
  const refunds = await sys.db.refund.findMany({ where: { transactionId: id } });
  expect(refunds).toHaveLength(14);
  expect(refunds.every((r) => r.status === 'SUCCESS')).toBe(true);
  expect(await sys.db.transaction.findUniqueOrThrow({ where: { id } })).toMatchObject({
    refundedAmount: 9800n,
    status: 'SUCCESS',
  });
  expect(await violations(sys)).toEqual([]);
});

it('callbacks racing the expiry check: every confirmed cash-in ends SUCCESS, its webhooks in the order of its changes', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: `race-expiry-${i}`,
      amount: 1500,
      customer_msisdn: i % 3 === 0 ? '+2250707000009' : '+2250707000001',
    });
    expect(res.status).toBe(202);
    ids.push(res.body.data.transaction_id as string);
  }
  // Every customer confirms: directly, or after the expiry (late confirmation).
  await waitFor(
    async () => (await sys.db.transaction.count({ where: { id: { in: ids }, status: 'SUCCESS' } })) === ids.length,
    { what: 'every raced cash-in SUCCESS', timeoutMs: 30_000 },
  );
  await settle(sys);
  const final = await sys.db.transaction.findMany({ where: { id: { in: ids } } });
  expect(final.map((t) => t.status)).toEqual(Array(30).fill('SUCCESS'));
  expect(await violations(sys)).toEqual([]);

  // Those that expired first were confirmed late: EXPIRED then SUCCESS, notified in that order.
  const history = await sys.db.transactionEvent.findMany({
    where: { transactionId: { in: ids } },
    orderBy: { id: 'asc' },
  });
  const lateOnes = ids.filter((id) => history.some((e) => e.transactionId === id && e.toStatus === 'EXPIRED'));
  for (const id of lateOnes) {
    const seen = sys.receiver.deliveries.filter((d) => d.body.transaction_id === id).map((d) => d.body.status);
    expect([...new Set(seen)]).toEqual(['EXPIRED', 'SUCCESS']);
  }
  // At least the ten late confirmations (09) took that path.
  expect(lateOnes.length).toBeGreaterThanOrEqual(10);
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
