import { createMerchantTestDatabase, linkInput, type MerchantTestDatabase } from '@mm/testing/test-database';
import { findLinkByIdempotencyKey, insertPaymentLinkOnce } from './index.js';

/**
 * A creation with an Idempotency-Key makes one link, whatever races it: the unique index decides, not the
 * look-up before it (which this calls past, as two requests both finding nothing would).
 */
let fixture: MerchantTestDatabase;
beforeAll(async () => {
  fixture = await createMerchantTestDatabase(10);
});
afterAll(async () => {
  await fixture.close();
});

const terms = () => linkInput(fixture.merchantId, { reusable: true, maxPayments: null });

it('twenty inserts with one key at the same moment make one link; one made it, the others answer it', async () => {
  const idempotency = { key: 'race-1', fingerprint: 'f1' };
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => insertPaymentLinkOnce(fixture.db, terms(), idempotency, new Date())),
  );
  expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
  expect(new Set(answers.map((a) => a.link.id)).size).toBe(1);
  expect(await fixture.db.paymentLink.count({ where: { idempotencyKey: 'race-1' } })).toBe(1);
});

it('the key with another fingerprint is IDEMPOTENCY_KEY_REUSED, at the insert as at the look-up', async () => {
  await insertPaymentLinkOnce(fixture.db, terms(), { key: 'race-2', fingerprint: 'f1' }, new Date());
  const other = { key: 'race-2', fingerprint: 'f2' };
  await expect(insertPaymentLinkOnce(fixture.db, terms(), other, new Date())).rejects.toMatchObject({
    code: 'IDEMPOTENCY_KEY_REUSED',
  });
  await expect(findLinkByIdempotencyKey(fixture.db, fixture.merchantId, other, new Date())).rejects.toMatchObject({
    code: 'IDEMPOTENCY_KEY_REUSED',
  });
  expect(await fixture.db.paymentLink.count({ where: { idempotencyKey: 'race-2' } })).toBe(1);
});

it('a key without a fingerprint is refused by the table', async () => {
  await expect(
    fixture.db.$executeRaw`UPDATE payment_links SET request_fingerprint = NULL WHERE idempotency_key = 'race-1'`,
  ).rejects.toThrow(/payment_links_idempotency_fingerprint/);
});
