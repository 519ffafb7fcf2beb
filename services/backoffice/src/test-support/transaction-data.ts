/**
 * Test data for the transactions, webhooks and audit suites, written with the real @mm/db functions
 * (createCashin, transition) into the fixture's database, and a look into the fixture's BullMQ queues.
 */
import { Queue } from 'bullmq';
import { completeOutbox } from '@mm/db/outbox';
import { type Db, type Transaction } from '@mm/db';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '@mm/db/merchants';
import { createCashin, transition } from '@mm/db/payments';
import { bullPrefix, createRedisConnection } from '@mm/queues';
import { TEST_REDIS_URL } from '@mm/testing';
import type { BackofficeFixture } from './backoffice-fixture.js';

/** A logged-in client holding a CSRF token (from the home page), and its staff account. */
export { loggedIn as logInAs } from './merchant-test-helpers.js';

export async function seedSubsidiaries(db: Db): Promise<void> {
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
}

export async function newMerchant(
  db: Db,
  name: string,
  webhookUrl: string | null = 'https://merchant.example/hooks',
): Promise<string> {
  return (await createMerchant(db, { name, webhookUrl })).id;
}

let orders = 0;

export async function newCashin(
  db: Db,
  o: { merchantId: string; orderId?: string; msisdn?: string; countryCode?: string; amount?: number },
): Promise<Transaction> {
  const countryCode = o.countryCode ?? 'CI';
  const r = await createCashin(db, {
    merchantId: o.merchantId,
    merchantOrderId: o.orderId ?? `order-${process.pid}-${++orders}`,
    amount: o.amount ?? 1000,
    currency: countryCode === 'CM' ? 'XAF' : 'XOF',
    countryCode,
    msisdn: o.msisdn ?? '+2250707000001',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (r.kind !== 'created') throw new Error('test setup: the cash-in was not created');
  return r.transaction;
}

/** CREATED -> INITIATED -> FAILED as the operator reports it; the FAILED change records a webhook event. */
export async function failByOperator(db: Db, transactionId: string): Promise<string> {
  await db.$transaction((tx) => transition(tx, { transactionId, to: 'INITIATED', cause: 'operator-request' }));
  await db.$transaction((tx) =>
    transition(tx, {
      transactionId,
      to: 'FAILED',
      cause: 'operator-result:callback',
      patch: {
        providerState: 'canceled',
        providerTxnStatus: '54321',
        failureCode: 'INSUFFICIENT_BALANCE',
        failureReason: '60019',
      },
    }),
  );
  return (await db.webhookEvent.findFirstOrThrow({ where: { transactionId }, orderBy: { seq: 'desc' } })).id;
}

/** What the dispatcher writes for failed attempts 1..count of an event (HTTP 500 each: an answer, so no `error`). */
async function failAttempts(db: Db, eventId: string, count: number): Promise<void> {
  for (let no = 1; no <= count; no++) {
    await db.webhookAttempt.create({
      data: {
        eventId,
        attemptNo: no,
        targetUrl: 'https://merchant.example/hooks',
        statusCode: 500,
        latencyMs: 40 + no,
        success: false,
        error: null,
      },
    });
  }
}

/** The event as the dispatcher leaves it after its 7th failure: ABANDONED, its outbox row done. */
export async function abandon(db: Db, eventId: string): Promise<void> {
  await failAttempts(db, eventId, 7);
  await db.webhookEvent.update({
    where: { id: eventId },
    data: { status: 'ABANDONED', attemptCount: 7, lastError: 'HTTP 500', nextAttemptAt: null },
  });
  await completeOutbox(db, eventId);
}

/** The event as the dispatcher leaves it after a first failure: PENDING, retried at `nextAttemptAt`. */
export async function failOnce(db: Db, eventId: string, nextAttemptAt: Date): Promise<void> {
  await failAttempts(db, eventId, 1);
  await db.webhookEvent.update({
    where: { id: eventId },
    data: { attemptCount: 1, lastError: 'HTTP 500', nextAttemptAt },
  });
}

/** A bullmq Queue on the fixture's prefix, to look at the jobs the back-office published. */
export function fixtureQueue(bo: BackofficeFixture, name: string): { queue: Queue; close(): Promise<void> } {
  const connection = createRedisConnection(TEST_REDIS_URL);
  const queue = new Queue(name, { connection, prefix: bullPrefix(bo.prefix) });
  return {
    queue,
    close: async () => {
      await queue.close();
      connection.disconnect();
    },
  };
}
