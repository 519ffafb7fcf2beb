import type { Db } from '../../database/index.js';
import type { Refund } from '../../generated/prisma/client.js';
import { createCashin } from '../create-cashin.js';
import { REFUND_COLUMNS } from './refund-row.js';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';

describe('a refund row read with raw SQL', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('is exactly what Prisma reads: every field, same names, same types', async () => {
    const created = await createCashin(db, {
      merchantId: fixture.merchantId,
      merchantOrderId: 'refund-row',
      amount: 1500,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'fp',
    });
    if (created.kind !== 'created') throw new Error('not created');
    const now = new Date();
    // Every column filled, so that each is compared with a value.
    const refund = await db.refund.create({
      data: {
        id: '4a2b7c1e-0f3d-4e5a-9b8c-7d6e5f4a3b2c',
        transactionId: created.transaction.id,
        merchantId: fixture.merchantId,
        amount: 700n,
        currency: 'XOF',
        reason: 'r',
        status: 'FAILED',
        failureReason: 'f',
        providerReference: 'RF-ROW',
        providerRefundId: 'P1',
        idempotencyKey: 'k',
        requestFingerprint: 'fp',
        requestSignatureHash: 'b'.repeat(64),
        origin: 'MERCHANT',
        originalProviderTxId: 'TX1',
        createdAt: now,
        updatedAt: now,
        completedAt: now,
      },
    });
    expect(Object.values(refund).every((v) => v !== null)).toBe(true);
    const [viaSql] = await db.$queryRaw<Refund[]>`SELECT ${REFUND_COLUMNS} FROM refunds WHERE id = ${refund.id}::uuid`;
    expect(viaSql).toEqual(refund);
    expect(Object.keys(viaSql!).sort()).toEqual(Object.keys(refund).sort());
  });
});
