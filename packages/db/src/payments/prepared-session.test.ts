import type { Db } from '../database/index.js';
import { createCashin } from './create-cashin.js';
import { moveNow } from './moves/move-now.js';
import { storePreparedSession } from './prepared-session.js';
import { transition } from './moves/transition.js';
import { cashinInput, createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';

describe('storePreparedSession: the operator id a push reuses, kept once', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
  });
  afterAll(() => fixture.close());

  let n = 0;
  async function initiated() {
    const r = await createCashin(db, cashinInput(fixture.merchantId, `prep-${++n}`));
    if (r.kind !== 'created') throw new Error('not created');
    await moveNow(db, {
      transactionId: r.transaction.id,
      to: 'INITIATED',
      from: ['CREATED'],
      ofType: 'CASHIN',
      cause: 'operator-request',
    });
    return r.transaction.id;
  }
  const sessionOf = (id: string) =>
    db.transaction.findUniqueOrThrow({ where: { id } }).then((t) => t.providerSessionId);

  it('stores the first id and answers it to a later run that prepared another', async () => {
    const id = await initiated();
    await expect(storePreparedSession(db, id, 'PT-1')).resolves.toBe('PT-1');
    await expect(storePreparedSession(db, id, 'PT-2')).resolves.toBe('PT-1');
    expect(await sessionOf(id)).toBe('PT-1');
  });

  it('keeps one of two runs at once, and both answer it', async () => {
    const id = await initiated();
    const [a, b] = await Promise.all([storePreparedSession(db, id, 'PT-A'), storePreparedSession(db, id, 'PT-B')]);
    expect(a).toBe(b);
    expect(await sessionOf(id)).toBe(a);
  });

  it('refuses a cash-in that moved on without one, and writes nothing', async () => {
    const id = await initiated();
    await db.$transaction((tx) =>
      transition(tx, {
        transactionId: id,
        to: 'FAILED',
        cause: 'operator-request-refused',
        patch: { failureCode: 'OPERATOR_REJECTED' },
      }),
    );
    await expect(storePreparedSession(db, id, 'PT-late')).rejects.toThrow(/moved on/);
    expect(await sessionOf(id)).toBeNull();
  });
});
