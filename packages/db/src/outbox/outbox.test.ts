import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../database/index.js';
import { findOverdueOutbox, insertOutbox, type OutboxRow } from './outbox.js';
import { recordChange } from '../payments/index.js';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';

/*
 * The `@ts-expect-error` lines are checked by `pnpm run typecheck` (this package's tsconfig includes
 * src, tests too): each must fail to compile, or the typecheck fails ("Unused '@ts-expect-error'
 * directive"). The function holding them is never called.
 */
export async function onlyATopicsOwnPayloadCompiles(tx: Tx): Promise<void> {
  const id = randomUUID();
  await insertOutbox(tx, { topic: 'refund-requests', payload: { refund_id: id } });
  await insertOutbox(tx, {
    topic: 'expiry-checks',
    payload: { transaction_id: id, kind: 'expiry' },
    availableAt: new Date(),
    id,
  });
  // @ts-expect-error a refund request names its refund, not a transaction
  await insertOutbox(tx, { topic: 'refund-requests', payload: { transaction_id: id } });
  // @ts-expect-error a topic that does not exist
  await insertOutbox(tx, { topic: 'refund-request', payload: { refund_id: id } });
  // @ts-expect-error a topic is a queue name, not any string
  await insertOutbox(tx, { topic: String('refund-requests'), payload: { refund_id: id } });
  // @ts-expect-error operator-results is not fed by the outbox
  await insertOutbox(tx, { topic: 'operator-results', payload: { provider_reference: 'R' } });
  // @ts-expect-error an expiry check says which check it is
  await insertOutbox(tx, { topic: 'expiry-checks', payload: { transaction_id: id } });
  const history = { transactionId: id, fromStatus: null, toStatus: 'CREATED', cause: 'test', createdAt: new Date() };
  await recordChange(tx, history, [{ topic: 'operator-requests', payload: { transaction_id: id } }]);
  // @ts-expect-error the jobs of a state change are typed the same way
  await recordChange(tx, history, [{ topic: 'operator-requests', payload: { refund_id: id } }]);
}

describe('outbox rows', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    ({ db } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('reads back the job it wrote, typed by its topic', async () => {
    const refundId = randomUUID();
    const written = await db.$transaction((tx) =>
      insertOutbox(tx, { topic: 'refund-requests', payload: { refund_id: refundId }, availableAt: new Date(1000) }),
    );
    expect(written).toEqual({
      id: expect.any(String),
      topic: 'refund-requests',
      payload: { refund_id: refundId },
      availableAt: new Date(1000),
      run: 0,
    });

    const [read] = await findOverdueOutbox(db, ['refund-requests'], new Date(2000));
    expect(read).toEqual(written);
    if (read?.topic !== 'refund-requests') throw new Error('no refund request read back');
    expect(read.payload.refund_id).toBe(refundId);
  });

  it('reads a row whose payload breaks its type as it is: asserted there, checked when it is published', async () => {
    // A row from before a schema change (our code cannot write it any more).
    const id = randomUUID();
    await db.$executeRaw`INSERT INTO outbox (id, topic, payload, available_at)
      VALUES (${id}::uuid, 'cashout-requests', '{"cashout_id": "old"}'::jsonb, ${new Date(0)}::timestamptz)`;
    const rows: OutboxRow[] = await findOverdueOutbox(db, ['cashout-requests'], new Date(2000));
    expect(rows).toEqual([
      { id, topic: 'cashout-requests', payload: { cashout_id: 'old' }, availableAt: new Date(0), run: 0 },
    ]);
  });
});
