import { TestClient } from '@mm/testing';
import { PrivateRedisCluster, waitFor } from '@mm/testing';
import { startSystemBackoffice, STAFF_PASSWORD } from './support/backoffice.js';
import { expectError, newOrderId, signedHeaders } from './support/contract.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * REDIS_CLUSTER_NODES (`pnpm test:engines`): every service on a real 3-master Redis Cluster started by
 * the test (redis-server in cluster mode, joined by redis-cli --cluster create), with a hash-tagged
 * REDIS_PREFIX. Cash-in, refund and cash-out end to end (BullMQ's queues and their delayed jobs, the
 * outbox relays, the acknowledgement announced on pub/sub), the rate limiter's script, the replay guard
 * and the back-office's sessions, all on the cluster.
 */
let cluster: PrivateRedisCluster;
let redis: ReturnType<PrivateRedisCluster['testRedis']>;
let sys: System;

beforeAll(async () => {
  cluster = await PrivateRedisCluster.start(3);
  redis = cluster.testRedis();
  sys = await startSystem({
    redis,
    gatewayEnv: {
      DISBURSEMENT_ENABLED: 'true',
      CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: '1000000000',
      CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: '1000000000',
    },
  });
}, 120_000);
afterAll(async () => {
  await sys?.stop();
  await cluster?.stop();
});

const statusOf = async (id: string) =>
  (await sys.api('GET', `/api/v1/payments/${id}`)).body.data as Record<string, unknown>;
const until = (id: string, status: string) =>
  waitFor(async () => ((await statusOf(id)).status === status ? true : undefined), { what: `${id} ${status}` });
const hooksOf = (id: string) =>
  sys.receiver.received
    .filter((w) => w.body.transaction_id === id)
    .map((w) => `${String(w.body.event)}:${String(w.body.status)}`);

describe('on a 3-master Redis Cluster', () => {
  it("a cash-in is acknowledged (the bridge's announcement reaches the gateway), captured and notified; refunded in full", async () => {
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: newOrderId('cluster'),
      amount: 7000,
      customer_msisdn: CI_NUMBER('01'),
    });
    expect(res.status).toBe(202);
    // PENDING in the answer: the gateway waited for the push's acknowledgement, announced on the cluster.
    expect(res.body.data.status).toBe('PENDING');
    const id = res.body.data.transaction_id as string;
    await until(id, 'SUCCESS');
    await waitFor(() => hooksOf(id).length === 1 || undefined, { what: 'the SUCCESS webhook' });

    const refund = await sys.api('POST', '/api/v1/refunds', { transaction_id: id, reason: 'returned' });
    expect(refund.status).toBe(202);
    await waitFor(
      async () =>
        (await sys.api('GET', `/api/v1/refunds/${refund.body.data.refund_id as string}`)).body.data.status ===
          'SUCCESS' || undefined,
      { what: 'refund SUCCESS' },
    );
    await waitFor(() => hooksOf(id).length === 3 || undefined, { what: 'three webhooks' });
    expect(hooksOf(id)).toEqual([
      'transaction.status_changed:SUCCESS',
      'refund.status_changed:SUCCESS',
      'transaction.status_changed:REVERSED',
    ]);
  });

  it('a cash-out is paid from the balance and notified', async () => {
    const fund = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: newOrderId('fund'),
      amount: 500_000,
      customer_msisdn: CI_NUMBER('01'),
    });
    await until(fund.body.data.transaction_id as string, 'SUCCESS');
    const res = await sys.api('POST', '/api/v1/payments/cashout', {
      merchant_order_id: newOrderId('co'),
      amount: 100_000,
      beneficiary_msisdn: '+2250707123401',
      reason: 'salaire',
    });
    expect(res.status).toBe(202);
    const id = res.body.data.transaction_id as string;
    await until(id, 'SUCCESS');
    await waitFor(() => hooksOf(id).length === 1 || undefined, { what: "the cash-out's webhook" });
  });

  it("the rate limiter's script runs on the cluster: past the burst, 429", async () => {
    const limited = await sys.startExtraGateway({ RATE_LIMIT_PER_S: '1', RATE_LIMIT_BURST: '2' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => limited.api('GET', '/api/v1/balances')));
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(3);
  });

  it('the replay guard remembers a signature on the cluster: the same signed POST again is 401 REQUEST_REPLAYED', async () => {
    // Refused before anything is written (400): only the guard's key in Redis can tell the second one is a replay.
    const body = { merchant_order_id: newOrderId('replay'), amount: 'not a number', customer_msisdn: CI_NUMBER('01') };
    const headers = signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, JSON.stringify(body));
    expectError(
      await sys.api('POST', '/api/v1/payments/cashin', body, { headers: { ...headers } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await sys.api('POST', '/api/v1/payments/cashin', body, { headers: { ...headers } }),
      401,
      'REQUEST_REPLAYED',
    );
  });

  it('a staff member logs in to the back-office, the session kept on the cluster', async () => {
    const backoffice = await startSystemBackoffice(sys);
    try {
      const staff = new TestClient(backoffice.url);
      expect((await staff.logIn(await backoffice.staff('viewer'), STAFF_PASSWORD)).status).toBe(303);
      expect((await staff.get('/transactions')).status).toBe(200);
      // Its readiness pings the sessions' cluster client too; the gateway's its own.
      expect((await fetch(`${backoffice.internalUrl}/ready`)).status).toBe(200);
      expect((await fetch(`${sys.internalUrls.gateway}/ready`)).status).toBe(200);
    } finally {
      await backoffice.stop();
    }
  });

  it("every key of the suite is under its hash tag, so in one slot: BullMQ's multi-key scripts can run", async () => {
    const slots = new Set<number>();
    for (const node of redis.cluster.nodes('master')) {
      const keys = await node.keys(`${redis.prefix}*`);
      for (const key of keys) slots.add(Number(await node.call('CLUSTER', 'KEYSLOT', key)));
    }
    expect(slots.size).toBe(1);
    expect(redis.cluster.nodes('master')).toHaveLength(3);
  });
});
