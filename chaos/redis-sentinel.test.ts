import { parseEnv as backofficeEnv, startBackoffice, type RunningBackoffice } from '@mm/backoffice';
import { TestClient } from '@mm/testing';
import { createStaffUser } from '@mm/db/staff';
import { waitFor } from '@mm/testing';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { restartedServices, settle, violations } from './support/invariants.js';
import { itEndsReconciled } from './support/reconcile-all.js';
import { merchantSender, runLoad } from './support/load.js';

/**
 * Redis behind Sentinel (a primary, its replica, three sentinels; every service given REDIS_SENTINELS):
 * the primary is killed -9 in the middle of a load. The sentinels promote the replica; every service
 * follows it on its own; what the failover dropped (writes the replica had not received, jobs taken or
 * completed on the dead primary) is published again from the outbox or asked again of the operator.
 */
let sys: ChaosSystem;
/** The back-office, in this process: its staff sessions are in Redis (node-redis, not ioredis). */
let backoffice: RunningBackoffice;

beforeAll(async () => {
  sys = await startChaosSystem({ suite: 'redis-sentinel', redisSentinel: true, confirmationTimeoutS: 8 });
  backoffice = await startBackoffice(
    backofficeEnv({
      ...sys.adminEnv,
      REDIS_URL: sys.redis.url,
      REDIS_SENTINELS: sys.sentinels!.addresses,
      REDIS_SENTINEL_MASTER: sys.sentinels!.master,
      REDIS_PREFIX: 'chaos',
      BACKOFFICE_PORT: '0',
      BACKOFFICE_INTERNAL_PORT: '0',
      DB_POOL_SIZE: '2',
    }),
  );
});
afterAll(async () => {
  await backoffice?.stop();
  await sys?.stop();
});

// 06 never confirms (its expiry check waits in Redis), 02 fails: every kind of job is in flight at the kill.
const SUFFIXES = ['01', '02', '06', '01', '05', '01'];

it('the Redis primary killed -9 mid-load: its replica promoted, every service follows it, nothing lost or doubled', async () => {
  // A staff member logged in before the failover: the session was written to the primary and replicated.
  await createStaffUser(sys.db, {
    email: 'sentinel@backoffice.test',
    name: 'Sentinel',
    role: 'viewer',
    password: 'a long password',
  });
  const staff = new TestClient(backoffice.url);
  expect((await staff.logIn('sentinel@backoffice.test', 'a long password')).status).toBe(303);
  expect((await staff.get('/transactions')).status).toBe(200);

  const load = runLoad(sys.api, { prefix: 'failover', count: 48, concurrency: 6, suffixes: SUFFIXES, refundEvery: 3 });
  const loadOutcome = load.then(
    () => null,
    (err: unknown) => err,
  );
  await waitFor(
    async () =>
      (await sys.db.transaction.count({
        where: { merchantOrderId: { startsWith: 'failover-' }, status: 'PENDING' },
      })) >= 3 || undefined,
    { what: 'cash-ins of the load in flight', timeoutMs: 60_000, intervalMs: 50 },
  );

  const killedAt = Date.now();
  await sys.redis.stop();
  const replicaPort = sys.redisReplica!.port;
  await waitFor(async () => (await sys.sentinels!.primaryPort()) === replicaPort || undefined, {
    what: 'the replica promoted',
    timeoutMs: 30_000,
    intervalMs: 50,
  });
  const promotedMs = Date.now() - killedAt;

  // How long until the whole path works again: a new cash-in answered 202 and its SUCCESS webhook received.
  const send = merchantSender(sys.api, {});
  const res = await send('POST', '/api/v1/payments/cashin', {
    merchant_order_id: `failover-probe-${Date.now()}`,
    amount: 2500,
    customer_msisdn: '+2250707000001',
  });
  expect(res.status).toBe(202);
  const probeId = res.body.data.transaction_id as string;
  await waitFor(
    () =>
      sys.receiver.deliveries.some((d) => d.body.transaction_id === probeId && d.body.status === 'SUCCESS') ||
      undefined,
    { what: 'the SUCCESS webhook of a cash-in made after the kill', timeoutMs: 60_000, intervalMs: 50 },
  );
  const recoveredMs = Date.now() - killedAt;

  expect(await loadOutcome).toBeNull();
  const report = await load;
  await settle(sys);
  expect(await violations(sys)).toEqual([]);
  expect(report.transactionIds).toHaveLength(48);
  expect(restartedServices(sys)).toEqual([]);
  // The back-office's session store followed the promotion too: the same session still opens its pages.
  await waitFor(async () => (await staff.get('/transactions')).status === 200 || undefined, {
    what: 'the staff session read from the new primary',
    timeoutMs: 30_000,
  });
  console.info(
    `redis-sentinel: replica promoted ${promotedMs} ms after the kill -9 of the primary; a cash-in made then completed (202 and its SUCCESS webhook) ${recoveredMs} ms after the kill; load answers ${JSON.stringify(report.statuses)}`,
  );
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
