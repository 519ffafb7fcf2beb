import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import { createFixture, type Fixture } from './test-support/fixture.js';

describe('outbox relay', () => {
  let f: Fixture;
  let r: Receiver;
  beforeAll(async () => {
    f = await createFixture({ OUTBOX_RELAY_INTERVAL_MS: '100', OUTBOX_GRACE_MS: '0' });
    r = await startReceiver();
  });
  afterAll(async () => {
    await f.close();
    await r.close();
  });

  it('re-publishes and delivers an event whose job Redis lost', async () => {
    const { merchantId } = await f.merchant(r.url);
    const { webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    expect((await f.producer.queue.getJobCounts('waiting')).waiting).toBe(1);

    await f.redis.flush();
    expect((await f.producer.queue.getJobCounts('waiting', 'delayed', 'active')).waiting).toBe(0);

    await f.start();
    await waitFor(
      async () => (await f.db.webhookEvent.findUniqueOrThrow({ where: { id: row!.id } })).status === 'DELIVERED',
      { what: 'delivered' },
    );
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.headers['x-service-event-id']).toBe(row!.id);
  });
});
