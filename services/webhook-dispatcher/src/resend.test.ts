import { resendWebhookEvent as resendInTx } from '@mm/db/webhooks';
import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import { createFixture, type Fixture } from './test-support/fixture.js';
import { moveTransaction } from './test-support/move-transaction.js';

const resendWebhookEvent = (db: Fixture['db'], eventId: string) => db.$transaction((tx) => resendInTx(tx, eventId));

describe('resending an abandoned webhook event by hand', () => {
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

  async function abandonedEvent(reply: Receiver['reply']) {
    const r = await startReceiver(reply);
    receivers.push(r);
    const { merchantId } = await f.merchant(r.url);
    const { transactionId, webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    await waitFor(
      async () => (await f.db.webhookEvent.findUniqueOrThrow({ where: { id: row!.id } })).status === 'ABANDONED',
      { what: 'abandoned' },
    );
    return { r, eventId: row!.id, transactionId };
  }
  const statusOf = async (id: string) => (await f.db.webhookEvent.findUniqueOrThrow({ where: { id } })).status;
  const attemptNos = async (eventId: string) =>
    (await f.db.webhookAttempt.findMany({ where: { eventId }, orderBy: { attemptNo: 'asc' } })).map((a) => [
      a.attemptNo,
      a.statusCode,
    ]);

  it('delivers it on a new attempt numbered after the earlier ones, keeping their history', async () => {
    let failing = true;
    const { r, eventId } = await abandonedEvent(() => (failing ? 500 : 200));
    failing = false;
    const row = await resendWebhookEvent(f.db, eventId);
    expect(row).toEqual(expect.objectContaining({ id: eventId, run: 7 }));
    await f.publisher.publish([row!]);
    await waitFor(async () => (await statusOf(eventId)) === 'DELIVERED', { what: 'delivered' });

    expect(await attemptNos(eventId)).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
      [5, 500],
      [6, 500],
      [7, 500],
      [8, 200],
    ]);
    expect(await f.db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } })).toEqual(
      expect.objectContaining({ attemptCount: 8 }),
    );
    expect(r.requests).toHaveLength(8);
  });

  it('grants a full new round of 7 attempts, then abandons again', async () => {
    const { r, eventId } = await abandonedEvent(() => 500);
    await f.publisher.publish([(await resendWebhookEvent(f.db, eventId))!]);
    await waitFor(async () => (await statusOf(eventId)) === 'ABANDONED' && (await attemptNos(eventId)).length === 14, {
      what: 'abandoned again',
    });
    expect((await attemptNos(eventId)).map(([n]) => n)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(r.requests).toHaveLength(14);
  });

  it('does nothing for an event that is not abandoned', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const { merchantId } = await f.merchant(r.url);
    const { webhookRows } = await f.cashin(merchantId, ['SUCCESS']);
    const [row] = webhookRows;
    await f.publisher.publish(webhookRows);
    await waitFor(async () => (await statusOf(row!.id)) === 'DELIVERED', { what: 'delivered' });
    expect(await resendWebhookEvent(f.db, row!.id)).toBeNull();
    expect(await resendWebhookEvent(f.db, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('holds the resent event while a later event of its transaction is in flight, then delivers it after that one', async () => {
    let answerLater: (status: number) => void = () => undefined;
    const later = new Promise<number>((resolve) => {
      answerLater = resolve;
    });
    let fixed = false;
    const r = await startReceiver((_n, req) => {
      const status = JSON.parse(req.body).status as string;
      if (status === 'SUCCESS') return later;
      return fixed ? 200 : 500;
    });
    receivers.push(r);
    const { merchantId } = await f.merchant(r.url);
    const { transactionId, webhookRows } = await f.cashin(merchantId, ['PENDING', 'EXPIRED']);
    await f.publisher.publish(webhookRows);
    const expiredId = webhookRows[0]!.id;
    await waitFor(async () => (await statusOf(expiredId)) === 'ABANDONED', { what: 'EXPIRED abandoned' });

    // The late SUCCESS: nothing is pending, so it goes at once; its receiver holds the answer.
    const moved = await moveTransaction(f.db, transactionId, 'SUCCESS');
    await f.publisher.publish(moved);
    await waitFor(() => r.requests.some((q) => JSON.parse(q.body).status === 'SUCCESS'), { what: 'SUCCESS in flight' });

    fixed = true;
    const row = await resendWebhookEvent(f.db, expiredId);
    expect(row!.availableAt.getUTCFullYear()).toBe(9999);
    expect(await f.db.webhookEvent.findUniqueOrThrow({ where: { id: expiredId } })).toEqual(
      expect.objectContaining({ status: 'PENDING', nextAttemptAt: null }),
    );
    await f.publisher.publish([row!]);

    answerLater(200);
    await waitFor(async () => (await statusOf(expiredId)) === 'DELIVERED', {
      what: 'EXPIRED delivered after the resend',
    });
    expect(r.requests.map((q) => JSON.parse(q.body).status)).toEqual([
      ...Array(7).fill('EXPIRED'),
      'SUCCESS',
      'EXPIRED',
    ]);
    expect(await attemptNos(expiredId)).toEqual([...[1, 2, 3, 4, 5, 6, 7].map((n) => [n, 500]), [8, 200]]);
  });
});
