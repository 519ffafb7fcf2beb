import { signatureMatches, timestampWithinTolerance } from '@mm/domain';
import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import type { Job } from 'bullmq';
import { createLogger } from '@mm/observability';
import { WebhookConnections } from './connections.js';
import { webhookDeliveriesHandler } from './processors/webhook-deliveries.js';
import { createFixture, FAST_SCHEDULE_MS, type Fixture } from './test-support/fixture.js';

describe('webhook delivery', () => {
  let f: Fixture;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    f = await createFixture();
    await f.start();
  });
  afterAll(async () => {
    await f.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(reply?: Receiver['reply']): Promise<Receiver> {
    const r = await startReceiver(reply);
    receivers.push(r);
    return r;
  }

  const eventOf = (id: string) => f.db.webhookEvent.findUniqueOrThrow({ where: { id } });
  const attemptsOf = (eventId: string) =>
    f.db.webhookAttempt.findMany({ where: { eventId }, orderBy: { attemptNo: 'asc' } });
  const settled = (id: string, status: string) =>
    waitFor(async () => (await eventOf(id)).status === status, { what: `event ${id} ${status}` });

  it('sends the interface body with its headers, signed with the merchant secret over timestamp + raw body, and records the 200', async () => {
    const r = await receiver();
    const { merchantId, apiSecret } = await f.merchant(r.url);
    const { transactionId, webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    await settled(row!.id, 'DELIVERED');

    expect(r.requests).toHaveLength(1);
    const [req] = r.requests;
    const tx = await f.db.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    expect(JSON.parse(req!.body)).toEqual({
      event: 'transaction.status_changed',
      event_id: row!.id,
      transaction_id: transactionId,
      merchant_order_id: tx.merchantOrderId,
      type: 'CASHIN',
      status: 'SUCCESS',
      amount: 1500,
      currency: 'XOF',
      country_code: 'CI',
      provider_tx_id: tx.providerTxId,
      operator: 'SIMULATOR',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/),
    });
    // The fields go out in the interface's order (jsonb does not keep it).
    expect(Object.keys(JSON.parse(req!.body))[0]).toBe('event');

    const h = req!.headers;
    expect(h['content-type']).toBe('application/json');
    expect(h['user-agent']).toBe('Service-Webhook/1.0');
    expect(h['x-service-event-id']).toBe(row!.id);
    expect(h['x-service-timestamp']).toMatch(/^\d+$/);
    expect(timestampWithinTolerance(h['x-service-timestamp'] as string, Date.now(), 5)).toBe(true);
    expect(h['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(
      Object.keys(h)
        .filter((k) => k.startsWith('x-service-'))
        .sort(),
    ).toEqual(['x-service-event-id', 'x-service-signature', 'x-service-timestamp']);
    expect(
      signatureMatches(apiSecret, h['x-service-timestamp'] as string, req!.body, h['x-service-signature'] as string),
    ).toBe(true);
    expect(
      signatureMatches('sk_other', h['x-service-timestamp'] as string, req!.body, h['x-service-signature'] as string),
    ).toBe(false);

    const attempts = await attemptsOf(row!.id);
    expect(attempts).toEqual([
      expect.objectContaining({ attemptNo: 1, targetUrl: r.url, statusCode: 200, error: null, success: true }),
    ]);
    const event = await eventOf(row!.id);
    expect(event).toEqual(
      expect.objectContaining({
        status: 'DELIVERED',
        attemptCount: 1,
        deliveredAt: expect.any(Date),
        nextAttemptAt: null,
      }),
    );
    const outbox = await f.db.outbox.findUniqueOrThrow({ where: { id: row!.id } });
    expect(outbox.completedAt).not.toBeNull();
  });

  it('signs with the newest key: a key issued after a delivery signs the next one (its cached secret was dropped on the change)', async () => {
    const r = await receiver();
    const { merchantId, apiSecret: first } = await f.merchant(r.url);
    let newer = 'not issued yet';
    const secretOf = (i: number) => {
      const { headers, body } = r.requests[i]!;
      return [first, newer].find((k) =>
        signatureMatches(k, headers['x-service-timestamp'] as string, body, headers['x-service-signature'] as string),
      );
    };
    const deliver = async () => {
      const { webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
      await f.publisher.publish(webhookRows);
      await settled(webhookRows[0]!.id, 'DELIVERED');
    };
    await deliver();
    await deliver();
    newer = await f.newKey(merchantId);
    await deliver();
    expect([0, 1, 2].map(secretOf)).toEqual([first, first, newer]);
  });

  it('abandons after exactly 7 attempts answered 500, each retry waiting at least the configured delay', async () => {
    const r = await receiver(() => 500);
    const { merchantId } = await f.merchant(r.url);
    const { webhookRows } = await f.cashin(merchantId, ['FAILED']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    await settled(row!.id, 'ABANDONED');

    const attempts = await attemptsOf(row!.id);
    expect(attempts.map((a) => [a.attemptNo, a.statusCode, a.success])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => [n, 500, false]),
    );
    for (let i = 1; i < attempts.length; i++) {
      const gap = attempts[i]!.createdAt.getTime() - attempts[i - 1]!.createdAt.getTime();
      expect(gap).toBeGreaterThanOrEqual(FAST_SCHEDULE_MS);
    }
    expect(r.requests).toHaveLength(7);
    // One event, one id and one body on every attempt: receivers deduplicate on event_id.
    expect(new Set(r.requests.map((q) => q.headers['x-service-event-id']))).toEqual(new Set([row!.id]));
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    expect(JSON.parse(r.requests[0]!.body)).toEqual(
      expect.objectContaining({ status: 'FAILED', failure_code: null, failure_reason: null }),
    );

    const event = await eventOf(row!.id);
    expect(event).toEqual(
      expect.objectContaining({ attemptCount: 7, lastError: 'HTTP 500', nextAttemptAt: null, deliveredAt: null }),
    );
    expect((await f.db.outbox.findUniqueOrThrow({ where: { id: row!.id } })).completedAt).not.toBeNull();
  });

  it('delivers on the third attempt when the receiver fails twice then answers 200', async () => {
    const r = await receiver((n) => (n < 2 ? 503 : 200));
    const { merchantId } = await f.merchant(r.url);
    const { webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    await settled(row!.id, 'DELIVERED');

    const attempts = await attemptsOf(row!.id);
    expect(attempts.map((a) => [a.attemptNo, a.statusCode, a.success])).toEqual([
      [1, 503, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    expect(await eventOf(row!.id)).toEqual(expect.objectContaining({ attemptCount: 3, status: 'DELIVERED' }));
    expect(r.requests).toHaveLength(3);
  });

  it('sends the bytes recorded with the event, the same on every attempt, in the order they were built', async () => {
    const r = await receiver((n) => (n < 1 ? 503 : 200));
    const { merchantId } = await f.merchant(r.url);
    const { webhookRows } = await f.cashin(merchantId, ['FAILED']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    await settled(row!.id, 'DELIVERED');

    const { body } = await eventOf(row!.id);
    expect(r.requests.map((q) => q.body)).toEqual([body, body]);
    expect(Object.keys(JSON.parse(body!))).toEqual([
      'event',
      'event_id',
      'transaction_id',
      'merchant_order_id',
      'type',
      'status',
      'amount',
      'currency',
      'country_code',
      'provider_tx_id',
      'failure_code',
      'failure_reason',
      'operator',
      'timestamp',
    ]);
  });

  it("two runs of one event's job at once (BullMQ running it again while it is still at work) send it once", async () => {
    let answer: (status: number) => void = () => undefined;
    const r = await receiver(
      () =>
        new Promise<number>((resolve) => {
          answer = resolve;
        }),
    );
    const { merchantId, apiSecret } = await f.merchant(r.url);
    const { webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    const connections = new WebhookConnections({ maxSocketsPerTarget: 4 });
    const handler = webhookDeliveriesHandler({
      db: f.db,
      signingSecret: async () => apiSecret,
      publisher: f.publisher,
      scheduleMs: [FAST_SCHEDULE_MS],
      timeoutMs: 5000,
      allowPrivate: true,
      connections,
      logger: createLogger('delivery-test', 'silent'),
    });
    const job = { outbox_id: row!.id, event_id: row!.id };
    try {
      const first = handler(job, {} as Job);
      // The second starts while the first waits for the merchant's answer.
      await waitFor(() => r.requests.length === 1, { what: 'the first run sending' });
      await handler(job, {} as Job);
      answer(200);
      await first;
    } finally {
      connections.close();
    }
    expect(r.requests).toHaveLength(1);
    expect((await attemptsOf(row!.id)).map((a) => [a.attemptNo, a.statusCode])).toEqual([[1, 200]]);
    expect(await eventOf(row!.id)).toEqual(
      expect.objectContaining({ attemptCount: 1, status: 'DELIVERED', nextAttemptAt: null }),
    );
  });

  it('delivers the events of one transaction in order, the second waiting while the first is retried', async () => {
    const r = await receiver((n) => (n === 0 ? 500 : 200));
    const { merchantId } = await f.merchant(r.url);
    // A late confirmation: EXPIRED is notified, then SUCCESS.
    const { transactionId, webhookRows } = await f.cashin(merchantId, ['PENDING', 'EXPIRED', 'SUCCESS']);
    // The SUCCESS event is held behind the EXPIRED one: only the first row is publishable.
    expect(webhookRows).toHaveLength(1);
    await f.publisher.publish(webhookRows);

    const events = await f.db.webhookEvent.findMany({ where: { transactionId }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => (e.payload as { status: string }).status)).toEqual(['EXPIRED', 'SUCCESS']);
    await settled(events[1]!.id, 'DELIVERED');

    expect(r.requests.map((q) => [JSON.parse(q.body).status, q.headers['x-service-event-id']])).toEqual([
      ['EXPIRED', events[0]!.id],
      ['EXPIRED', events[0]!.id],
      ['SUCCESS', events[1]!.id],
    ]);
    const [first, second] = await Promise.all(events.map((e) => eventOf(e.id)));
    expect(first).toEqual(expect.objectContaining({ status: 'DELIVERED', attemptCount: 2 }));
    expect(second).toEqual(expect.objectContaining({ status: 'DELIVERED', attemptCount: 1 }));
    const [secondAttempt] = await attemptsOf(second!.id);
    expect(secondAttempt!.createdAt.getTime()).toBeGreaterThanOrEqual(first!.deliveredAt!.getTime());
  });

  it('answers /health and /ready with the database and Redis reachable', async () => {
    const base = `http://127.0.0.1:${f.dispatcher!.port}`;
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
  });
});
