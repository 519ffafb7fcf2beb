import { randomUUID } from 'node:crypto';
import type { TransactionStatus } from '@mm/domain';
import type { Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { HELD } from '../outbox/index.js';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';
import { waitFor } from '@mm/testing';
import { createCashin, transition } from '../payments/index.js';
import { recordDeliveryOutcome, type DeliveryOutcome } from './record-delivery-outcome.js';

let fixture: DbTestDatabase;
let db: Db;
let merchantId: string;

beforeAll(async () => {
  fixture = await createDbTestDatabase(4);
  ({ db } = fixture);
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  merchantId = (
    await createMerchant(db, { name: 'Delivery Outcome Test', webhookUrl: 'https://merchant.example/hooks' })
  ).id;
});
afterAll(async () => {
  await fixture.close();
});

const move = (transactionId: string, to: TransactionStatus) =>
  db.$transaction((tx) => transition(tx, { transactionId, to, cause: 'test' }));

async function expiredCashin(): Promise<string> {
  const created = await createCashin(db, {
    merchantId,
    merchantOrderId: `order-${randomUUID()}`,
    amount: 2000,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000001',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (created.kind !== 'created') throw new Error('cash-in not created');
  for (const to of ['INITIATED', 'PENDING', 'EXPIRED'] as const) {
    if (!(await move(created.transaction.id, to))) throw new Error(`setup move to ${to} refused`);
  }
  return created.transaction.id;
}

/** EXPIRED, then a late SUCCESS: the second event is held behind the first. */
async function twoEvents() {
  const transactionId = await expiredCashin();
  await move(transactionId, 'SUCCESS');
  const [first, second] = await db.webhookEvent.findMany({ where: { transactionId }, orderBy: { seq: 'asc' } });
  return { transactionId, first: first!, second: second! };
}

function record(eventId: string, outcome: DeliveryOutcome, attemptNo = 1) {
  const now = new Date();
  return recordDeliveryOutcome(db, {
    eventId,
    outboxId: eventId,
    attempt: {
      attemptNo,
      targetUrl: 'https://merchant.example/hooks',
      statusCode: outcome.kind === 'delivered' ? 200 : 503,
      latencyMs: 12,
      error: null,
      errorDetail: null,
      attemptedAt: now,
      finishedAt: now,
    },
    outcome,
  });
}

async function state(eventId: string) {
  const event = await db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } });
  const outbox = await db.outbox.findUniqueOrThrow({ where: { id: eventId } });
  return {
    status: event.status,
    due: event.nextAttemptAt !== null,
    held: outbox.availableAt.getTime() === HELD.getTime(),
    done: outbox.completedAt !== null,
    run: outbox.run,
  };
}

describe('recordDeliveryOutcome: the events of one transaction are delivered in order', () => {
  it('holds the second event while the first is pending', async () => {
    const { first, second } = await twoEvents();
    expect(await state(first.id)).toMatchObject({ status: 'PENDING', due: true, held: false, done: false });
    expect(await state(second.id)).toMatchObject({ status: 'PENDING', due: false, held: true, done: false });
  });

  it('the first delivered releases the held second, and returns its row to publish', async () => {
    const { first, second } = await twoEvents();
    const recorded = await record(first.id, { kind: 'delivered' });
    expect(recorded.recordedAs).toBe('DELIVERED');
    expect(recorded.publish.map((r) => r.id)).toEqual([second.id]);
    expect(recorded.publish[0]!.availableAt.getTime()).not.toBe(HELD.getTime());
    expect(await state(first.id)).toMatchObject({ status: 'DELIVERED', done: true });
    expect(await state(second.id)).toMatchObject({ status: 'PENDING', due: true, held: false, done: false });
    const attempts = await db.webhookAttempt.findMany({ where: { eventId: first.id } });
    expect(attempts).toMatchObject([{ attemptNo: 1, statusCode: 200, success: true }]);
  });

  it('the first given up releases the held second too', async () => {
    const { first, second } = await twoEvents();
    const recorded = await record(first.id, { kind: 'given-up' });
    expect(recorded.recordedAs).toBe('ABANDONED');
    expect(recorded.publish.map((r) => r.id)).toEqual([second.id]);
    expect(await state(first.id)).toMatchObject({ status: 'ABANDONED', due: false, done: true });
    expect(await state(second.id)).toMatchObject({ status: 'PENDING', due: true, held: false });
    expect((await db.webhookEvent.findUniqueOrThrow({ where: { id: first.id } })).lastError).toBe('HTTP 503');
  });

  it('a retry of the first re-schedules its own job and keeps the second held', async () => {
    const { first, second } = await twoEvents();
    const at = new Date(Date.now() + 60_000);
    const recorded = await record(first.id, { kind: 'retry', at });
    expect(recorded.recordedAs).toBe('RETRY_SCHEDULED');
    expect(recorded.publish).toMatchObject([{ id: first.id, availableAt: at, run: 1 }]);
    expect(await state(first.id)).toMatchObject({ status: 'PENDING', due: true, done: false, run: 1 });
    expect(await state(second.id)).toMatchObject({ status: 'PENDING', due: false, held: true });
  });

  it('a second run of the same attempt is a DUPLICATE and writes nothing', async () => {
    const { first, second } = await twoEvents();
    await record(first.id, { kind: 'retry', at: new Date(Date.now() + 60_000) });
    const before = [await state(first.id), await state(second.id)];
    expect(await record(first.id, { kind: 'delivered' })).toEqual({ recordedAs: 'DUPLICATE', publish: [] });
    expect([await state(first.id), await state(second.id)]).toEqual(before);
    expect(await db.webhookAttempt.count({ where: { eventId: first.id } })).toBe(1);
  });

  it('a new event recorded while the first is being delivered is never left held behind an ended one', async () => {
    for (let i = 0; i < 8; i++) {
      const transactionId = await expiredCashin();
      const [first] = await db.webhookEvent.findMany({ where: { transactionId } });
      await Promise.all([move(transactionId, 'SUCCESS'), record(first!.id, { kind: 'delivered' })]);
      const [, second] = await db.webhookEvent.findMany({ where: { transactionId }, orderBy: { seq: 'asc' } });
      expect(await state(second!.id)).toMatchObject({ status: 'PENDING', due: true, held: false });
    }
  });

  it('a record that waited for the lock of a move adding an event sees that event, and releases it', async () => {
    const transactionId = await expiredCashin();
    const [first] = await db.webhookEvent.findMany({ where: { transactionId } });
    let recording: ReturnType<typeof record> | null = null;
    await db.$transaction(
      async (tx) => {
        // The move holds the transaction's row and adds the late SUCCESS event, held behind the first.
        expect(await transition(tx, { transactionId, to: 'SUCCESS', cause: 'test' })).not.toBeNull();
        recording = record(first!.id, { kind: 'delivered' });
        await waitFor(
          async () => {
            const [row] = await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%record_webhook_attempt%'`;
            return row!.n === 1;
          },
          { what: 'the record to wait for the row lock' },
        );
      },
      { timeout: 15_000 },
    );
    const recorded = await recording!;
    const [, second] = await db.webhookEvent.findMany({ where: { transactionId }, orderBy: { seq: 'asc' } });
    expect(recorded).toMatchObject({ recordedAs: 'DELIVERED', publish: [{ id: second!.id }] });
    expect(await state(second!.id)).toMatchObject({ status: 'PENDING', due: true, held: false });
  });
});
