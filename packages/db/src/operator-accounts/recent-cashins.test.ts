import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import { createCashin, transition } from '../payments/index.js';
import type { TransactionStatus } from '@mm/domain';
import { cashinOutcomesByAccount } from './recent-cashins.js';

describe('cashinOutcomesByAccount', () => {
  let fixture: MerchantTestDatabase;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
  });
  afterAll(async () => {
    await fixture.close();
  });

  let orders = 0;
  async function cashin(countryCode: string, operator: string, path: TransactionStatus[]): Promise<string> {
    const r = await createCashin(fixture.db, {
      merchantId: fixture.merchantId,
      merchantOrderId: `o-${++orders}`,
      amount: 500,
      currency: countryCode === 'CM' ? 'XAF' : 'XOF',
      countryCode,
      msisdn: '+2250500000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: 'fp',
      operator,
    });
    if (r.kind !== 'created') throw new Error('not created');
    for (const to of path) {
      const moved = await fixture.db.$transaction((tx) =>
        transition(tx, { transactionId: r.transaction.id, to, cause: 'test' }),
      );
      if (!moved) throw new Error(`not moved to ${to}`);
    }
    return r.transaction.id;
  }

  it("counts each account's cash-ins since the moment by outcome (SUCCESS, FAILED, EXPIRED, pending), older ones left out", async () => {
    await cashin('CI', 'MTN', ['INITIATED', 'SUCCESS']);
    await cashin('CI', 'MTN', ['INITIATED', 'SUCCESS']);
    await cashin('CI', 'MTN', ['INITIATED', 'FAILED']);
    await cashin('CI', 'MTN', ['INITIATED', 'PENDING']);
    await cashin('CI', 'MTN', []);
    await cashin('CM', 'ORANGE', ['INITIATED', 'PENDING', 'EXPIRED']);
    const old = await cashin('CM', 'ORANGE', ['INITIATED', 'SUCCESS']);
    await fixture.db.transaction.update({
      where: { id: old },
      data: { createdAt: new Date(Date.now() - 2 * 3_600_000) },
    });

    expect(await cashinOutcomesByAccount(fixture.db, new Date(Date.now() - 3_600_000))).toEqual([
      { countryCode: 'CI', operator: 'MTN', success: 2, failed: 1, expired: 0, pending: 2 },
      { countryCode: 'CM', operator: 'ORANGE', success: 0, failed: 0, expired: 1, pending: 0 },
    ]);
  });
});
