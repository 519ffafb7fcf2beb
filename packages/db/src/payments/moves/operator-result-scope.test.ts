import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import { applyOperatorResult } from './apply-operator-result.js';
import { createCashin } from '../create-cashin.js';
import { createCashout } from '../create-cashout.js';
import { newProviderReference } from '../provider-reference.js';
import { transition } from './transition.js';

let fixture: MerchantTestDatabase;
beforeAll(async () => {
  fixture = await createMerchantTestDatabase();
});
afterAll(async () => {
  await fixture.close();
});

let seq = 0;
async function cashin() {
  const r = await createCashin(fixture.db, {
    merchantId: fixture.merchantId,
    merchantOrderId: `in-${++seq}`,
    amount: 5000,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000055',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (r.kind !== 'created') throw new Error('not created');
  return r.transaction;
}

describe('provider references', () => {
  it('are random: nothing of the public transaction id is in them', async () => {
    const references = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const t = await cashin();
      expect(t.providerReference).toMatch(/^MM[0-9A-HJKMNP-TV-Z]{20}$/);
      const hex = t.id.replace(/-/g, '').toUpperCase();
      // The old reference was MM + the id's first 20 hex digits: no 6-digit run of the id may appear.
      for (let k = 0; k + 6 <= hex.length; k++) expect(t.providerReference.slice(2)).not.toContain(hex.slice(k, k + 6));
      references.add(t.providerReference);
    }
    expect(references.size).toBe(20);
  });

  it('carry their kind as prefix and 100 random bits', () => {
    const samples = Array.from({ length: 2000 }, () => newProviderReference('CO'));
    expect(new Set(samples).size).toBe(samples.length);
    for (const r of samples) expect(r).toMatch(/^CO[0-9A-HJKMNP-TV-Z]{20}$/);
    // Every symbol of the alphabet shows up in every position over 2 000 draws (not a counter, not a hash of a clock).
    for (let position = 2; position < 22; position++) expect(new Set(samples.map((r) => r[position])).size).toBe(32);
  });
});

describe('an operator result names a reference', () => {
  it('of a cash-out: nothing moves, nothing is released', async () => {
    // Money to pay out from: a captured cash-in on the available balance.
    const paid = await cashin();
    for (const to of ['INITIATED', 'SUCCESS'] as const)
      await fixture.db.$transaction((tx) => transition(tx, { transactionId: paid.id, to, cause: 'test' }));
    const created = await createCashout(fixture.db, {
      merchantId: fixture.merchantId,
      merchantOrderId: 'out-1',
      amount: 4000,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      reason: null,
      notifyUrl: null,
      requestFingerprint: 'fp',
      approval: 'none',
    });
    if (created.kind !== 'created') throw new Error('not created');
    const id = created.transaction.id;
    await fixture.db.$transaction((tx) =>
      transition(tx, { transactionId: id, to: 'INITIATED', cause: 'cashout-request' }),
    );
    const entries = await fixture.db.journalEntry.count({ where: { transactionId: id } });

    for (const providerState of ['KO', 'canceled', 'OK'] as const) {
      const moved = await fixture.db.$transaction((tx) =>
        applyOperatorResult(
          tx,
          id,
          {
            providerState,
            providerTxnStatus: providerState === 'OK' ? '200' : null,
            providerTxId: null,
            failureReason: null,
          },
          'operator-result:callback',
        ),
      );
      expect(moved).toBeNull();
    }
    expect(await fixture.db.transaction.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'INITIATED',
      failureCode: null,
    });
    expect(await fixture.db.journalEntry.count({ where: { transactionId: id } })).toBe(entries);
  });

  it('of a cash-in: applied as before', async () => {
    const t = await cashin();
    const moved = await fixture.db.$transaction((tx) =>
      applyOperatorResult(
        tx,
        t.id,
        {
          providerState: 'KO',
          providerTxnStatus: null,
          providerTxId: null,
          failureReason: null,
        },
        'operator-result:callback',
      ),
    );
    expect(moved?.transaction.status).toBe('FAILED');
  });
});
