import { waitFor } from '@mm/testing';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { settle, violations } from './support/invariants.js';
import { runLoad } from './support/load.js';
import { itEndsReconciled } from './support/reconcile-all.js';

/**
 * Scenario 2: kill -9 of the gateway between the database commit of a cash-in and the publication of
 * its operator request (the gateway's fault hook kills it there), in the middle of a load. The
 * operator bridge's relay publishes the committed row; the merchant's retry of the cut request gets
 * the same transaction back; the requests cut with it are retried and nothing is created twice.
 */
let sys: ChaosSystem;

beforeAll(async () => {
  sys = await startChaosSystem({
    suite: 'gateway-crash',
    env: {
      gateway: { CHAOS_KILL_AFTER_COMMIT_PREFIX: 'crash-' },
      // Long enough to look at the row before the relay takes it.
      bridge: { OUTBOX_GRACE_MS: '3000' },
    },
  });
});
afterAll(async () => {
  await sys?.stop();
});

it('a cash-in committed by a gateway killed before publishing is pushed once, and the retried request replays it', async () => {
  const load = runLoad(sys.api, {
    prefix: 'gw-load',
    count: 40,
    concurrency: 6,
    suffixes: ['01', '02', '01', '05'],
    refundEvery: 4,
  });
  const loadOutcome = load.then(
    () => null,
    (err: unknown) => err,
  );
  await new Promise((r) => setTimeout(r, 500));

  const body = { merchant_order_id: 'crash-1', amount: 7300, customer_msisdn: '+2250707000001' };
  const cut = await sys.api('POST', '/api/v1/payments/cashin', body).then(
    (r) => r.status,
    (err: Error) => err.name,
  );
  expect(cut).toBe('TypeError'); // fetch: the connection was cut, no answer
  expect(await sys.services.gateway.exit(5000)).toBe('SIGKILL');

  // What the crash left: the transaction and its outbox row committed, no job in Redis.
  const t = await sys.db.transaction.findFirstOrThrow({ where: { merchantOrderId: 'crash-1' } });
  expect(t.status).toBe('CREATED');
  const row = await sys.db.outbox.findFirstOrThrow({
    where: { topic: 'operator-requests', payload: { path: ['transaction_id'], equals: t.id } },
  });
  expect(row.completedAt).toBeNull();
  expect(await sys.redis.jobExists('operator-requests', `${row.id}_0`)).toBe(false);

  await sys.services.gateway.start();
  // The merchant sends the cut request again (a new signature, the same order).
  const retried = await sys.api('POST', '/api/v1/payments/cashin', body);
  expect(retried.status).toBe(200);
  expect(retried.headers.get('idempotent-replayed')).toBe('true');
  expect(retried.body.data.transaction_id).toBe(t.id);

  expect(await loadOutcome).toBeNull();
  const report = await load;
  await settle(sys);
  // Settled counts a PENDING the customer has not answered yet; the 01 number confirms a moment later.
  await waitFor(
    async () => (await sys.db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status === 'SUCCESS',
    { what: 'crash-1 SUCCESS', timeoutMs: 30_000 },
  );
  await settle(sys);
  expect((await sys.db.outbox.findUniqueOrThrow({ where: { id: row.id } })).completedAt).toBeInstanceOf(Date);
  expect(await sys.db.transaction.count({ where: { merchantOrderId: 'crash-1' } })).toBe(1);
  expect(await violations(sys)).toEqual([]);
  expect(report.transactionIds).toHaveLength(40);
  expect(new Set(report.transactionIds).size).toBe(40);
  // The requests in flight when it died got no answer and were sent again.
  expect(report.statuses.network ?? 0).toBeGreaterThan(0);
  expect(report.statuses['500'] ?? 0).toBe(0);
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
