import { randomUUID } from 'node:crypto';
import { createCashin, transition } from '@mm/db/payments';
import { signPayload } from '@mm/domain';
import type { RunningBridge } from '@mm/operator-bridge';
import { createRedisConnection, operatorRequests, operatorResults, outboxJobId, QueueProducer } from '@mm/queues';
import { waitFor } from '@mm/testing';
import type { Redis } from 'ioredis';
import { simulatorCallbackUrl, startExtraBridge } from './support/reliability-bridge.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * Operator reliability (docs/architecture.md, "Reliability rules"): never two USSD pushes for one
 * transaction, bounded timeouts and retries against an unreachable operator, signed callbacks only,
 * and the operator asked once more before a cash-in expires.
 */
let sys: System;
let connection: Redis;
let requests: QueueProducer<{ outbox_id: string; transaction_id: string }>;
let results: QueueProducer<object>;
let seq = 0;
const order = () => `relop-${Date.now()}-${++seq}`;
const CONFIRMATION_TIMEOUT_S = 3;

beforeAll(async () => {
  // 4 push attempts against a hanging operator take about 4 x 300 ms.
  sys = await startSystem({ operatorTimeoutMs: 300, hangMs: 1000, confirmationTimeoutS: CONFIRMATION_TIMEOUT_S });
  connection = createRedisConnection(sys.redis.url);
  requests = new QueueProducer(operatorRequests, { connection, redisPrefix: sys.redis.prefix });
  results = new QueueProducer(operatorResults, { connection, redisPrefix: sys.redis.prefix }) as QueueProducer<object>;
});
afterAll(async () => {
  await requests.close();
  await results.close();
  connection.disconnect();
  await sys.stop();
});

const transaction = (id: string) => sys.db.transaction.findUniqueOrThrow({ where: { id } });
const statusIs = (id: string, status: string, timeoutMs = 15_000) =>
  waitFor(
    async () => {
      const t = await transaction(id);
      return t.status === status ? t : undefined;
    },
    { what: `transaction ${id} ${status}`, timeoutMs },
  );
const history = async (id: string) =>
  (await sys.db.transactionEvent.findMany({ where: { transactionId: id }, orderBy: { id: 'asc' } })).map(
    (e) => `${e.fromStatus}->${e.toStatus}:${e.cause}`,
  );
const webhookFor = (id: string, status: string) =>
  waitFor(() => sys.receiver.received.find((w) => w.body.transaction_id === id && w.body.status === status), {
    what: `${status} webhook for ${id}`,
    timeoutMs: 15_000,
  });
const operatorRequestRow = (transactionId: string) =>
  sys.db.outbox.findFirstOrThrow({
    where: { topic: operatorRequests.name, payload: { path: ['transaction_id'], equals: transactionId } },
  });
const jobGone = (jobId: string) =>
  waitFor(async () => (await requests.queue.getJob(jobId)) === undefined, { what: `job ${jobId} done` });

/**
 * Starts the suite's bridge again and waits until both its workers are registered in Redis: a bridge
 * stopped while its BullMQ connections are still initialising fails noisily (see the report).
 */
async function restartBridge() {
  await sys.startBridge();
  await waitFor(
    async () => (await requests.queue.getWorkersCount()) > 0 && (await results.queue.getWorkersCount()) > 0,
    { what: 'bridge workers ready' },
  );
}

async function cashin(suffix: string) {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: order(),
    amount: 5000,
    customer_msisdn: CI_NUMBER(suffix),
  });
  expect(res.status).toBe(202);
  return res.body.data as { transaction_id: string; provider_reference: string; status: string };
}

describe('never two USSD pushes for one transaction', () => {
  it('a bridge that crashed after INITIATED, its job then run twice, pushes once and the cash-in completes', async () => {
    await sys.stopBridge();
    const created = await createCashin(sys.db, {
      merchantId: sys.merchant.id,
      merchantOrderId: order(),
      amount: 1500,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: CI_NUMBER('01'),
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: `fp-${randomUUID()}`,
    });
    if (created.kind !== 'created') throw new Error('not created');
    const {
      transaction: t,
      outbox: [row],
    } = created;
    // The crashed run got as far as INITIATED; whether its push left is unknown.
    expect(
      await sys.db.$transaction((tx) =>
        transition(tx, { transactionId: t.id, to: 'INITIATED', cause: 'operator-request' }),
      ),
    ).not.toBeNull();
    // Its job is run again (stalled job) and a second copy is queued too (relay, duplicate delivery).
    await requests.add({ outbox_id: row!.id, transaction_id: t.id }, { jobId: outboxJobId(row!.id, 0) });
    await requests.add({ outbox_id: row!.id, transaction_id: t.id }, { jobId: 'dup-1' });

    await restartBridge();

    await statusIs(t.id, 'SUCCESS');
    await jobGone(outboxJobId(row!.id, 0));
    await jobGone('dup-1');
    expect(sys.sim.pushCount(t.providerReference)).toBe(1);
    expect(await history(t.id)).toEqual([
      'null->CREATED:cashin-accepted',
      'CREATED->INITIATED:operator-request',
      'INITIATED->PENDING:operator-ack',
      'PENDING->SUCCESS:operator-result:callback',
    ]);
    expect((await operatorRequestRow(t.id)).completedAt).toEqual(expect.any(Date));
    await webhookFor(t.id, 'SUCCESS');
  });

  it('a second operator-requests job for a PENDING cash-in pushes nothing and changes nothing', async () => {
    // 55: no scripted outcome, the push stays PENDING until someone answers on the virtual phone.
    const data = await cashin('55');
    expect(data.status).toBe('PENDING');
    const row = await operatorRequestRow(data.transaction_id);
    const before = await history(data.transaction_id);

    await requests.add({ outbox_id: row.id, transaction_id: data.transaction_id }, { jobId: 'dup-pending-1' });
    await jobGone('dup-pending-1');

    expect(sys.sim.pushCount(data.provider_reference)).toBe(1);
    expect((await transaction(data.transaction_id)).status).toBe('PENDING');
    expect(await history(data.transaction_id)).toEqual(before);
    // Leave nothing pending behind: the customer confirms.
    expect((await sys.sandbox(`/sandbox/payments/${data.provider_reference}/confirm`, { method: 'POST' })).status).toBe(
      200,
    );
    await statusIs(data.transaction_id, 'SUCCESS');
  });
});

describe('operator unreachable', () => {
  it('a push that times out on every attempt ends FAILED OPERATOR_UNAVAILABLE with a FAILED webhook, nothing pushed', async () => {
    const started = Date.now();
    const data = await cashin('08');
    const done = await statusIs(data.transaction_id, 'FAILED');
    expect(done).toMatchObject({ failureCode: 'OPERATOR_UNAVAILABLE', failureReason: null });
    expect(done.completedAt).toEqual(expect.any(Date));
    // Four bounded attempts (300 ms each), not one unbounded wait.
    expect(done.completedAt!.getTime() - started).toBeGreaterThanOrEqual(4 * 300);
    expect(await history(data.transaction_id)).toEqual([
      'null->CREATED:cashin-accepted',
      'CREATED->INITIATED:operator-request',
      'INITIATED->FAILED:operator-unavailable',
    ]);
    expect(sys.sim.pushCount(data.provider_reference)).toBe(0);
    const hook = await webhookFor(data.transaction_id, 'FAILED');
    expect(hook.body).toMatchObject({ status: 'FAILED', failure_code: 'OPERATOR_UNAVAILABLE', failure_reason: null });
    const api = await sys.api('GET', `/api/v1/payments/${data.transaction_id}`);
    expect(api.body.data).toMatchObject({ status: 'FAILED', failure_code: 'OPERATOR_UNAVAILABLE' });
  });
});

describe('operator callbacks are authenticated', () => {
  let bridge: RunningBridge;
  beforeAll(async () => {
    bridge = await startExtraBridge(sys);
  });
  afterAll(async () => {
    await bridge.stop();
  });

  const post = (body: string, headers: Record<string, string>) =>
    fetch(simulatorCallbackUrl(bridge), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    });
  const signed = (body: string, secret = 'sim-callback-secret', timestamp = String(Math.floor(Date.now() / 1000))) => ({
    'X-Operator-Timestamp': timestamp,
    'X-Operator-Signature': signPayload(secret, timestamp, body),
  });

  it('exposes the count of operator OKs for FAILED cash-ins on /metrics, for an alert', async () => {
    const res = await fetch(`${bridge.internalUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^mm_operator_ok_for_failed_cashin_total\{service="operator-bridge"\} 0$/m);
  });

  it('rejects an unsigned, wrongly signed, stale or altered callback with 401 and applies nothing; the right signature is applied', async () => {
    const data = await cashin('55');
    expect(data.status).toBe('PENDING');
    const before = await transaction(data.transaction_id);
    const historyBefore = await history(data.transaction_id);
    const body = JSON.stringify({
      partner_reference: data.provider_reference,
      session_id: before.providerSessionId,
      provider_tx_id: 'MPFORGED0001',
      state: 'OK',
      txn_status: '200',
      failure_reason: null,
    });
    const now = Math.floor(Date.now() / 1000);
    const attempts: [string, Record<string, string>, string][] = [
      ['unsigned', {}, body],
      ['only a timestamp', { 'X-Operator-Timestamp': String(now) }, body],
      ['signed with another secret', signed(body, 'not-the-operator-secret'), body],
      ['signature of another body', signed(body.replace('MPFORGED0001', 'MPFORGED0002')), body],
      ['body altered after signing', signed(body), body.replace('"OK"', '"OK" ')],
      ['timestamp 301 s old', signed(body, 'sim-callback-secret', String(now - 301)), body],
      ['garbage signature', { 'X-Operator-Timestamp': String(now), 'X-Operator-Signature': 'deadbeef' }, body],
    ];
    for (const [what, headers, sent] of attempts) {
      const res = await post(sent, headers);
      expect({ what, status: res.status }).toEqual({ what, status: 401 });
    }

    // Nothing was queued for the result worker and nothing moved.
    expect(await results.queue.getJobCounts('waiting', 'delayed', 'active', 'completed', 'failed')).toMatchObject({
      waiting: 0,
      delayed: 0,
      active: 0,
    });
    expect(await transaction(data.transaction_id)).toEqual(before);
    expect(await history(data.transaction_id)).toEqual(historyBefore);
    expect(await sys.db.webhookEvent.count({ where: { transactionId: data.transaction_id } })).toBe(0);

    // The same callback properly signed is accepted: the 401s above were the signature's doing.
    const ok = await post(body, signed(body));
    expect(ok.status).toBe(200);
    const done = await statusIs(data.transaction_id, 'SUCCESS');
    expect(done.providerTxId).toBe('MPFORGED0001');
  });
});

describe('expiry asks the operator once more', () => {
  it('a cash-in the operator confirmed but whose callback was lost becomes SUCCESS at expiry time, not EXPIRED', async () => {
    const data = await cashin('55');
    expect(data.status).toBe('PENDING');
    // The callback cannot reach us: the bridge is down while the customer confirms, and the
    // simulator gives up after its few retries.
    await sys.stopBridge();
    try {
      const confirm = await sys.sandbox(`/sandbox/payments/${data.provider_reference}/confirm`, { method: 'POST' });
      expect(confirm.status).toBe(200);
      expect((await transaction(data.transaction_id)).status).toBe('PENDING');

      // The expiry worker runs on its own; its status query finds the operator's OK.
      const done = await statusIs(data.transaction_id, 'SUCCESS', (CONFIRMATION_TIMEOUT_S + 10) * 1000);
      expect(done).toMatchObject({ providerState: 'OK', providerTxnStatus: '200', failureCode: null });
      expect(done.providerTxId).toEqual(expect.any(String));
      expect(done.completedAt).toEqual(expect.any(Date));
    } finally {
      await restartBridge();
    }
    const events = await history(data.transaction_id);
    expect(events.at(-1)).toBe('PENDING->SUCCESS:expiry-check:operator-result');
    expect(events.some((e) => e.includes('EXPIRED'))).toBe(false);
    const hooks = await waitFor(
      () => {
        const h = sys.receiver.received.filter((w) => w.body.transaction_id === data.transaction_id);
        return h.length ? h : undefined;
      },
      { what: 'webhook' },
    );
    expect(hooks.map((h) => h.body.status)).toEqual(['SUCCESS']);
  });
});
