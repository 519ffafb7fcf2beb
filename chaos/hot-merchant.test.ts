import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { settle, violations } from './support/invariants.js';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Scenario 7: one merchant's cash-ins at full speed. Every cash-in of a merchant credits its pending
 * balance and every confirmation moves it to the available one, so the gateway and the bridge post
 * to the same two ledger rows all the time. A posting that locked those rows too strongly (FOR
 * UPDATE, against the foreign-key locks of the journal entries) or locked and then updated them from
 * its statement's older snapshot deadlocked under this load: some cash-ins answered 500.
 */
let sys: ChaosSystem;

beforeAll(async () => {
  // The customer confirms at once: captures race the next cash-ins.
  sys = await startChaosSystem({
    suite: 'hot-merchant',
    outcomeDelayMs: 0,
    env: {
      gateway: { DB_POOL_SIZE: '10', RATE_LIMIT_PER_S: '100000', RATE_LIMIT_BURST: '100000' },
      bridge: { DB_POOL_SIZE: '10' },
    },
  });
});
afterAll(async () => {
  await sys?.stop();
});

it('50 clients sending cash-ins of one merchant for 15 s: every answer 202, none lost, the ledger verifies', async () => {
  const statuses: Record<number, number> = {};
  let n = 0;
  const deadline = Date.now() + 15_000;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (Date.now() < deadline) {
        const res = await sys.api('POST', '/api/v1/payments/cashin', {
          merchant_order_id: `hot-${++n}`,
          amount: 1000,
          customer_msisdn: '+2250707000001',
        });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  expect(Object.keys(statuses)).toEqual(['202']);
  await settle(sys);
  expect(
    await sys.db.transaction.count({ where: { merchantOrderId: { startsWith: 'hot-' }, status: 'SUCCESS' } }),
  ).toBe(statuses[202]);
  expect(await violations(sys)).toEqual([]);
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
