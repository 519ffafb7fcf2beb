import type { Db } from '../database/index.js';
import { createCashin } from '../payments/index.js';
import {
  cashinInput,
  createMerchantTestDatabase,
  smallTablePlans,
  type MerchantTestDatabase,
  type SmallTablePlans,
} from '@mm/testing/test-database';
import { claimDueDelivery, recordDeliveryOutcome, recordWebhookEvent } from './index.js';

/**
 * A merchant's endpoint down for a while: its events stay PENDING with failed attempts, hundreds of
 * them. The statements every delivery runs (the check for an earlier undelivered event of the same
 * cash-in when an event is written, the claim of an attempt, its record) must still each read their
 * own rows, also in the plans PostgreSQL keeps for them, made while the table was small and never
 * analysed (a deployment's first minutes): no index of undelivered events may be a way to them.
 */
describe('the delivery statements while undelivered events pile up', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let plans: SmallTablePlans;
  let n = 0;

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
    plans = await smallTablePlans(fixture, 'webhook_events');
  });
  afterAll(async () => {
    await plans.close();
    await fixture.close();
  });

  async function cashin(): Promise<string> {
    const r = await createCashin(db, cashinInput(fixture.merchantId, `dp-${++n}`));
    if (r.kind !== 'created') throw new Error('not created');
    return r.transaction.id;
  }
  /** An event written as a terminal move writes it: the check for an earlier one, the event, its job. */
  async function writeEvent(transactionId: string): Promise<string> {
    let eventId = '';
    const job = await plans.db.$transaction((tx) =>
      recordWebhookEvent(tx, {
        merchantId: fixture.merchantId,
        transactionId,
        eventType: 'payment.succeeded',
        targetUrl: 'https://merchant.example/hooks',
        buildPayload: (id) => ((eventId = id), { id }),
      }),
    );
    if (!job) throw new Error('event held');
    return eventId;
  }
  /** One delivery: its claim and its record. */
  async function deliver(eventId: string): Promise<void> {
    const now = new Date();
    if (!(await claimDueDelivery(plans.db, eventId, now, new Date(now.getTime() + 30_000))))
      throw new Error('not claimed');
    const recorded = await recordDeliveryOutcome(plans.db, {
      eventId,
      outboxId: eventId,
      outcome: { kind: 'delivered' },
      attempt: {
        attemptNo: 1,
        targetUrl: 'https://merchant.example/hooks',
        statusCode: 200,
        latencyMs: 5,
        error: null,
        errorDetail: null,
        attemptedAt: now,
        finishedAt: now,
      },
    });
    if (recorded.recordedAs !== 'DELIVERED') throw new Error(`recorded as ${recorded.recordedAs}`);
  }
  it('each finds its rows by key: 20 deliveries read far fewer than the 300 undelivered events', async () => {
    // The plans, made on a table of two events.
    for (let i = 0; i < 2; i++) await deliver(await writeEvent(await cashin()));

    const down = await cashin();
    await db.$executeRawUnsafe(
      `INSERT INTO webhook_events (id, merchant_id, transaction_id, event_type, payload, target_url, status, attempt_count, next_attempt_at)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, 'payment.succeeded', '{}'::jsonb, 'https://merchant.example/hooks', 'PENDING', 3, now() + interval '1 hour'
         FROM generate_series(1, 300)`,
      fixture.merchantId,
      down,
    );
    const fresh = await Promise.all(Array.from({ length: 20 }, () => cashin()));

    const before = await plans.rowsRead();
    for (const transactionId of fresh) await deliver(await writeEvent(transactionId));
    // A statement that went through the undelivered events would read 300 rows each time.
    expect((await plans.rowsRead()) - before).toBeLessThan(300);
    expect(await db.webhookEvent.count({ where: { transactionId: { in: fresh }, status: 'DELIVERED' } })).toBe(20);
  });
});
