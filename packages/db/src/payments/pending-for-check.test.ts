import { randomUUID } from 'node:crypto';
import type { Db } from '../database/index.js';
import { applyOperatorResult } from './moves/apply-operator-result.js';
import { createCashin } from './create-cashin.js';
import { moveNow } from './moves/move-now.js';
import { pendingForCheck } from './pending-checks.js';
import {
  cashinInput,
  countingClient,
  createMerchantTestDatabase,
  type MerchantTestDatabase,
} from '@mm/testing/test-database';

describe('pendingForCheck: the cash-in a status check is about, or its check done', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  /** A client on the same database that records every statement it sends. */
  let counted: ReturnType<typeof countingClient>;
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
    counted = countingClient(fixture.database.url, 1);
  });
  afterAll(async () => {
    await counted.db.$disconnect();
    await fixture.close();
  });

  let n = 0;
  /** A PENDING cash-in and the outbox row of its first check. */
  async function pendingCashin() {
    const created = await createCashin(db, cashinInput(fixture.merchantId, `check-${++n}`));
    if (created.kind !== 'created') throw new Error('not created');
    const id = created.transaction.id;
    await moveNow(db, { transactionId: id, to: 'INITIATED', ofType: 'CASHIN', cause: 'operator-request' });
    const moved = await moveNow(db, {
      transactionId: id,
      to: 'PENDING',
      ofType: 'CASHIN',
      cause: 'operator-ack',
      patch: { providerState: 'PENDING', expiresAt: new Date(Date.now() + 300_000) },
    });
    const check = moved!.outbox.find((r) => r.topic === 'expiry-checks')!;
    return { id, checkId: check.id };
  }
  const completedAt = async (outboxId: string) =>
    (await db.outbox.findUniqueOrThrow({ where: { id: outboxId } })).completedAt;

  it('a PENDING cash-in: its row as Prisma reads it, the check left to run, in one statement', async () => {
    const { id, checkId } = await pendingCashin();
    counted.statements.length = 0;
    const t = await pendingForCheck(counted.db, id, checkId);
    expect(counted.statements).toHaveLength(1);
    expect(t).toEqual(await db.transaction.findUniqueOrThrow({ where: { id } }));
    expect(await completedAt(checkId)).toBeNull();
  });

  it('a cash-in that ended: null, and its check is done in the same statement', async () => {
    const { id, checkId } = await pendingCashin();
    await db.$transaction((tx) =>
      applyOperatorResult(
        tx,
        id,
        { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'TX', failureReason: null },
        'operator-result:callback',
      ),
    );
    counted.statements.length = 0;
    expect(await pendingForCheck(counted.db, id, checkId)).toBeNull();
    expect(counted.statements).toHaveLength(1);
    expect(await completedAt(checkId)).toBeInstanceOf(Date);
    // Run again (a job run twice): still null, the row's completion kept as it was.
    const first = await completedAt(checkId);
    expect(await pendingForCheck(counted.db, id, checkId)).toBeNull();
    expect(await completedAt(checkId)).toEqual(first);
  });

  it('an unknown cash-in: null, and the check is done', async () => {
    const { checkId } = await pendingCashin();
    expect(await pendingForCheck(counted.db, randomUUID(), checkId)).toBeNull();
    expect(await completedAt(checkId)).toBeInstanceOf(Date);
  });
});
