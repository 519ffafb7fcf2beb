import { createCashin } from './create-cashin.js';
import { readTransaction, transactionColumns } from './transaction-row.js';
import { transition } from './moves/transition.js';
import { insertPaymentLink } from '../payment-links/index.js';
import type { Transaction } from '../generated/prisma/client.js';
import type { Db } from '../database/index.js';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';

describe('a transaction row read with raw SQL', () => {
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
    // Paid through a payment link, so that payment_link_id too is compared filled.
    const link = await insertPaymentLink(
      db,
      {
        merchantId: fixture.merchantId,
        description: 'row link',
        countryCode: 'CI',
        currency: 'XOF',
        amount: { kind: 'fixed', amount: 1500 },
        reusable: false,
        maxPayments: 1,
        expiresAt: null,
        redirectUrl: null,
        metadata: null,
      },
      new Date(),
    );
    const created = await createCashin(db, {
      merchantId: fixture.merchantId,
      merchantOrderId: 'row-1',
      amount: 1500,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: 'm',
      returnUrl: 'https://shop.example/r',
      notifyUrl: 'https://shop.example/n',
      metadata: { a: 1 },
      requestFingerprint: 'fp',
      paymentLinkId: link.id,
    });
    if (created.kind !== 'created') throw new Error('not created');
    const id = created.transaction.id;
    expect(created.transaction.paymentLinkId).toBe(link.id);
    await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'INITIATED', cause: 't' }));
    await db.$transaction((tx) =>
      transition(tx, {
        transactionId: id,
        to: 'PENDING',
        cause: 't',
        patch: {
          providerState: 'PENDING',
          providerSessionId: 'S1',
          customerAction: { type: 'REDIRECT', url: 'https://op.example/p' },
          expiresAt: new Date(Date.now() + 60_000),
        },
      }),
    );
    await db.$transaction((tx) =>
      transition(tx, {
        transactionId: id,
        to: 'FAILED',
        cause: 't',
        patch: {
          providerTxnStatus: '54321',
          failureCode: 'INSUFFICIENT_BALANCE',
          failureReason: '60019',
          providerTxId: 'TX9',
        },
      }),
    );
    // Only a cash-out keeps one; set by hand so that this column too is compared filled.
    await db.$executeRaw`UPDATE transactions SET request_signature_hash = ${'a'.repeat(64)} WHERE id = ${id}::uuid`;

    const viaPrisma = await db.transaction.findUniqueOrThrow({ where: { id } });
    const [viaSql] = await db.$queryRaw<
      Transaction[]
    >`SELECT ${transactionColumns('t')} FROM transactions t WHERE t.id = ${id}::uuid`;
    expect(Object.values(viaPrisma).every((v) => v !== null)).toBe(true);
    expect(viaSql).toEqual(viaPrisma);
    expect(Object.keys(viaSql!).sort()).toEqual(Object.keys(viaPrisma).sort());
    // The same read on the pg pool, by id and by provider reference.
    expect(await readTransaction(db, { id })).toEqual(viaPrisma);
    expect(await readTransaction(db, { providerReference: viaPrisma.providerReference })).toEqual(viaPrisma);
    expect(await readTransaction(db, { providerReference: 'MMnone' })).toBeNull();
  });

  it('a patch field given as undefined keeps the stored value, in the database and in the row returned', async () => {
    const created = await createCashin(db, {
      merchantId: fixture.merchantId,
      merchantOrderId: 'row-2',
      amount: 1000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'fp2',
    });
    if (created.kind !== 'created') throw new Error('not created');
    const id = created.transaction.id;
    await db.$transaction((tx) =>
      transition(tx, { transactionId: id, to: 'INITIATED', cause: 't', patch: { providerSessionId: 'S7' } }),
    );
    const moved = await db.$transaction((tx) =>
      transition(tx, {
        transactionId: id,
        to: 'PENDING',
        cause: 't',
        patch: { providerSessionId: undefined, providerState: 'PENDING' },
      }),
    );
    expect(moved?.transaction.providerSessionId).toBe('S7');
    expect(moved?.transaction).toEqual(await db.transaction.findUniqueOrThrow({ where: { id } }));
  });
});
