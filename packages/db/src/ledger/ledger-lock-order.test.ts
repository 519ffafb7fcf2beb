import { refundPosting, cashinPosting, type Posting } from '@mm/domain';
import type { Db } from '../database/index.js';
import { post } from './ledger.js';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';

/**
 * Postings of one merchant touch its accounts in different orders (a refund reserve debits AVAILABLE
 * then credits RESERVED, a refund release the other way round). Unless post() locks the rows in one
 * fixed order, two such journals committing at once deadlock and PostgreSQL aborts one: a merchant's
 * refund answered 500, found by the chaos suite.
 */
describe('ledger postings under concurrency', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  let merchantId: string;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase(12);
    ({ db, merchantId } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  const scope = () => ({ merchantId, countryCode: 'CI', currency: 'XOF' });
  const postOne = (p: Posting) => db.$transaction((tx) => post(tx, scope(), p, null));

  it('never deadlocks when reserve, release and capture journals of one merchant commit at once', async () => {
    // Enough in every account for any order of what follows.
    await postOne(cashinPosting(null, 'CREATED', 10_000_000)!);
    await postOne(cashinPosting('PENDING', 'SUCCESS', 5_000_000)!);
    await postOne(refundPosting('ACCEPTED', 2_000_000));

    const postings: Posting[] = [];
    for (let i = 0; i < 150; i++) {
      postings.push(
        refundPosting('ACCEPTED', 10),
        refundPosting('FAILED', 10),
        cashinPosting('PENDING', 'SUCCESS', 10)!,
      );
    }
    // In waves as wide as the pool: wider waves only queue for a connection.
    const failures: string[] = [];
    for (let i = 0; i < postings.length; i += 12) {
      const results = await Promise.allSettled(postings.slice(i, i + 12).map(postOne));
      for (const r of results) if (r.status === 'rejected') failures.push(String(r.reason).slice(0, 200));
    }
    expect(failures).toEqual([]);
  });
});
