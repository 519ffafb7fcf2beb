import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { createRefund } from './refunds/create-refund.js';
import { createCashin } from './create-cashin.js';
import { createCashout } from './create-cashout.js';
import { transition } from './moves/transition.js';

/**
 * A refund or a cash-out a person asked for (the merchant portal) and its audit row are written in one
 * database transaction: both exist, or neither does.
 */
let database: TestDatabase;
let db: Db;
let merchantId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 2 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  merchantId = (await createMerchant(db, { name: 'Audit Test', webhookUrl: null })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

async function capturedCashin(): Promise<string> {
  const c = await createCashin(db, {
    merchantId,
    merchantOrderId: `in-${randomUUID()}`,
    amount: 5000,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000001',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (c.kind !== 'created') throw new Error('setup');
  for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const)
    await db.$transaction((tx) => transition(tx, { transactionId: c.transaction.id, to, cause: 'setup' }));
  return c.transaction.id;
}

const newRefund = (transactionId: string) => ({
  merchantId,
  transactionId,
  amount: 1000,
  reason: 'returned',
  idempotencyKey: randomUUID(),
  requestFingerprint: 'fp-1000',
});

describe('a refund with its audit row', () => {
  it('writes the row, naming the refund, with the refund', async () => {
    const tx = await capturedCashin();
    const made = await createRefund(db, {
      ...newRefund(tx),
      audit: (refund) => ({
        staffId: null,
        actor: 'owner@shop.test',
        action: 'portal.refund.requested',
        targetType: 'refund',
        targetId: refund.id,
        merchantId,
        after: { amount: Number(refund.amount) },
      }),
    });
    expect(made.kind).toBe('created');
    const rows = await db.auditEntry.findMany({ where: { targetId: made.refund.id } });
    expect(rows).toMatchObject([{ action: 'portal.refund.requested', merchantId, after: { amount: 1000 } }]);
  });

  it('leaves no refund, no reservation and no queued job when the audit row cannot be written', async () => {
    const tx = await capturedCashin();
    const outboxBefore = await db.outbox.count();
    await expect(
      createRefund(db, {
        ...newRefund(tx),
        audit: () => {
          throw new Error('audit log unavailable');
        },
      }),
    ).rejects.toThrow('audit log unavailable');
    expect(await db.refund.count({ where: { transactionId: tx } })).toBe(0);
    expect((await db.transaction.findUniqueOrThrow({ where: { id: tx } })).refundReservedAmount).toBe(0n);
    expect(await db.outbox.count()).toBe(outboxBefore);
  });
});

describe('a cash-out with its audit row', () => {
  const newCashout = () => ({
    merchantId,
    merchantOrderId: `out-${randomUUID()}`,
    amount: 500,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000002',
    reason: null,
    notifyUrl: null,
    requestFingerprint: 'fp-out',
    approval: 'none' as const,
  });

  it('writes the row, naming the cash-out, with the cash-out', async () => {
    await capturedCashin();
    const made = await createCashout(db, {
      ...newCashout(),
      audit: (t) => ({
        staffId: null,
        actor: 'finance@shop.test',
        action: 'portal.cashout.requested',
        targetType: 'transaction',
        targetId: t.id,
        merchantId,
        after: { amount: Number(t.amount), status: t.status },
      }),
    });
    expect(made.kind).toBe('created');
    const rows = await db.auditEntry.findMany({ where: { targetId: made.transaction.id } });
    expect(rows).toMatchObject([{ action: 'portal.cashout.requested', after: { amount: 500, status: 'CREATED' } }]);
  });

  it('leaves no cash-out, no hold on the balance and no queued job when the audit row cannot be written', async () => {
    await capturedCashin();
    const order = newCashout();
    const journalBefore = await db.journalEntry.count();
    const outboxBefore = await db.outbox.count();
    await expect(
      createCashout(db, {
        ...order,
        audit: () => {
          throw new Error('audit log unavailable');
        },
      }),
    ).rejects.toThrow('audit log unavailable');
    expect(await db.transaction.count({ where: { merchantOrderId: order.merchantOrderId } })).toBe(0);
    expect(await db.journalEntry.count()).toBe(journalBefore);
    expect(await db.outbox.count()).toBe(outboxBefore);
  });
});
