import { randomUUID } from 'node:crypto';
import { createCashin } from '@mm/db/payments';
import { createRedisConnection, operatorRequests, outboxJobId, QueueProducer, webhookDeliveries } from '@mm/queues';
import { waitFor } from '@mm/testing';
import type { Redis } from 'ioredis';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * Outbox reliability (docs/architecture.md, "Reliability rules"): a job that must happen is a database row
 * first; whatever dies between commit and publish, or if Redis loses its data, the relay re-publishes.
 */
let sys: System;
let connection: Redis;
let requests: QueueProducer<object>;
let deliveries: QueueProducer<object>;
let seq = 0;
const order = () => `rel-${Date.now()}-${++seq}`;

beforeAll(async () => {
  // The bridge (the only consumer of operator-requests, and its relay) starts in each test.
  // A failed webhook is retried after 1 s: long enough to lose its job in Redis before it runs.
  sys = await startSystem({ withoutBridge: true, ackWaitMs: 300, webhookScheduleS: '1,1,1,1,1,1' });
  connection = createRedisConnection(sys.redis.url);
  requests = new QueueProducer(operatorRequests, {
    connection,
    redisPrefix: sys.redis.prefix,
  }) as QueueProducer<object>;
  deliveries = new QueueProducer(webhookDeliveries, {
    connection,
    redisPrefix: sys.redis.prefix,
  }) as QueueProducer<object>;
});
afterAll(async () => {
  await requests.close();
  await deliveries.close();
  connection.disconnect();
  await sys.stop();
});
afterEach(() => sys.receiver.status(200));

const transaction = (id: string) => sys.db.transaction.findUniqueOrThrow({ where: { id } });
const statusIs = (id: string, status: string) =>
  waitFor(async () => ((await transaction(id)).status === status ? transaction(id) : undefined), {
    what: `transaction ${id} ${status}`,
    timeoutMs: 15_000,
  });
const operatorRequestRow = (transactionId: string) =>
  sys.db.outbox.findFirstOrThrow({
    where: { topic: operatorRequests.name, payload: { path: ['transaction_id'], equals: transactionId } },
  });
const history = async (id: string) =>
  (await sys.db.transactionEvent.findMany({ where: { transactionId: id }, orderBy: { id: 'asc' } })).map(
    (e) => `${e.fromStatus}->${e.toStatus}`,
  );
const webhookFor = (id: string, status: string) =>
  waitFor(() => sys.receiver.received.find((w) => w.body.transaction_id === id && w.body.status === status), {
    what: `${status} webhook for ${id}`,
    timeoutMs: 15_000,
  });

describe('outbox: a committed cash-in is never lost', () => {
  it('re-publishes a cash-in committed but never published (process killed between commit and publish), which then completes', async () => {
    await sys.stopBridge();
    // What a crash right after commit leaves: the transaction and its outbox row, no job in Redis.
    const created = await createCashin(sys.db, {
      merchantId: sys.merchant.id,
      merchantOrderId: order(),
      amount: 2500,
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
    expect(await requests.queue.getJob(outboxJobId(row!.id, 0))).toBeUndefined();
    expect((await transaction(t.id)).status).toBe('CREATED');

    await sys.startBridge();

    await statusIs(t.id, 'SUCCESS');
    expect(await history(t.id)).toEqual([
      'null->CREATED',
      'CREATED->INITIATED',
      'INITIATED->PENDING',
      'PENDING->SUCCESS',
    ]);
    await waitFor(async () => (await operatorRequestRow(t.id)).completedAt, {
      what: 'operator request outbox row completed',
    });
    expect(sys.sim.pushCount(t.providerReference)).toBe(1);
    await webhookFor(t.id, 'SUCCESS');
  });

  it('re-publishes an operator request whose job Redis lost, and the cash-in completes', async () => {
    await sys.stopBridge();
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: order(),
      amount: 3000,
      customer_msisdn: CI_NUMBER('01'),
    });
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe('CREATED');
    const id: string = res.body.data.transaction_id;
    const row = await operatorRequestRow(id);
    // The gateway published the job; nobody consumes it while the bridge is down.
    await waitFor(() => requests.queue.getJob(outboxJobId(row.id, 0)), { what: 'operator request job in Redis' });

    await sys.redis.flush();
    expect(await requests.queue.getJob(outboxJobId(row.id, 0))).toBeUndefined();
    expect(await requests.queue.getJobCounts('waiting', 'delayed', 'active')).toMatchObject({
      waiting: 0,
      delayed: 0,
      active: 0,
    });

    await sys.startBridge();

    const done = await statusIs(id, 'SUCCESS');
    expect(done.completedAt).toEqual(expect.any(Date));
    await waitFor(async () => (await operatorRequestRow(id)).completedAt, {
      what: 'operator request outbox row completed',
    });
    expect(sys.sim.pushCount(done.providerReference)).toBe(1);
    await webhookFor(id, 'SUCCESS');
  });

  it('re-publishes a webhook retry whose delayed job Redis lost: the event is still delivered', async () => {
    await sys.startBridge();
    sys.receiver.status(500);
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: order(),
      amount: 4000,
      customer_msisdn: CI_NUMBER('01'),
    });
    expect(res.status).toBe(202);
    const id: string = res.body.data.transaction_id;
    await statusIs(id, 'SUCCESS');

    // The first attempt fails (500) and the next one waits in Redis as a delayed job.
    const event = await waitFor(
      async () => {
        const e = await sys.db.webhookEvent.findFirst({ where: { transactionId: id } });
        return e && e.status === 'PENDING' && e.attemptCount >= 1 ? e : undefined;
      },
      { what: 'a failed first webhook attempt' },
    );
    const retryJobId = await waitFor(
      async () => {
        const row = await sys.db.outbox.findUniqueOrThrow({ where: { id: event.id } });
        const jobId = outboxJobId(row.id, row.run);
        return row.run >= 1 && (await deliveries.queue.getJob(jobId)) ? jobId : undefined;
      },
      { what: 'the retry job in Redis' },
    );

    await sys.redis.flush();
    expect(await deliveries.queue.getJob(retryJobId)).toBeUndefined();
    sys.receiver.status(200);

    const delivered = await waitFor(
      async () => {
        const e = await sys.db.webhookEvent.findUniqueOrThrow({ where: { id: event.id } });
        return e.status === 'DELIVERED' ? e : undefined;
      },
      { what: 'webhook delivered', timeoutMs: 15_000 },
    );
    expect(delivered.attemptCount).toBeGreaterThanOrEqual(2);
    const attempts = await sys.db.webhookAttempt.findMany({
      where: { eventId: event.id },
      orderBy: { attemptNo: 'asc' },
    });
    expect(attempts[0]).toMatchObject({ statusCode: 500, success: false });
    expect(attempts.at(-1)).toMatchObject({ statusCode: 200, success: true });
    const received = sys.receiver.received.filter((w) => w.body.event_id === event.id);
    expect(received.at(-1)!.body).toMatchObject({ status: 'SUCCESS', transaction_id: id });
    expect((await sys.db.outbox.findUniqueOrThrow({ where: { id: event.id } })).completedAt).toEqual(expect.any(Date));
  });
});
