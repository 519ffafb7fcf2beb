import { createDb, type Db } from '../../database/index.js';
import { createCashin } from '../create-cashin.js';
import { moveNow } from './move-now.js';
import { transition } from './transition.js';
import {
  cashinInput,
  createMerchantTestDatabase,
  smallTablePlans,
  type MerchantTestDatabase,
} from '@mm/testing/test-database';

describe('moveNow: a move without journal or webhook in one statement', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  /** A client on the same database that records every statement it sends. */
  let counted: Db;
  const statements: string[] = [];
  beforeAll(async () => {
    fixture = await createMerchantTestDatabase();
    db = fixture.db;
    counted = createDb({ databaseUrl: fixture.database.url, poolSize: 2, onQuery: (q) => statements.push(q) });
  });
  afterAll(async () => {
    await counted.$disconnect();
    await fixture.close();
  });

  let n = 0;
  async function cashin() {
    const r = await createCashin(db, cashinInput(fixture.merchantId, `mv-${++n}`));
    if (r.kind !== 'created') throw new Error('not created');
    return r;
  }
  const history = (id: string) =>
    db.transactionEvent
      .findMany({ where: { transactionId: id }, orderBy: { id: 'asc' } })
      .then((rows) => rows.map((e) => `${e.fromStatus}->${e.toStatus} ${e.cause}`));

  it('moves, records the history row from the status it found, and returns the row as Prisma reads it: one statement', async () => {
    const { transaction: t } = await cashin();
    statements.length = 0;
    const moved = await moveNow(counted, {
      transactionId: t.id,
      to: 'INITIATED',
      from: ['CREATED'],
      ofType: 'CASHIN',
      cause: 'operator-request',
    });
    expect(statements).toHaveLength(1);
    expect(moved?.from).toBe('CREATED');
    expect(moved?.outbox).toEqual([]);
    expect(moved?.transaction).toEqual(await db.transaction.findUniqueOrThrow({ where: { id: t.id } }));
    expect(moved?.transaction.status).toBe('INITIATED');
    expect(await history(t.id)).toEqual(['null->CREATED cashin-accepted', 'CREATED->INITIATED operator-request']);
  });

  it("writes the move's jobs and completes the job that asked for it, in the same statement", async () => {
    const {
      transaction: t,
      outbox: [request],
    } = await cashin();
    await moveNow(db, { transactionId: t.id, to: 'INITIATED', ofType: 'CASHIN', cause: 'operator-request' });
    const expiresAt = new Date(Date.now() + 300_000);
    statements.length = 0;
    const moved = await moveNow(
      counted,
      {
        transactionId: t.id,
        to: 'PENDING',
        ofType: 'CASHIN',
        cause: 'operator-ack',
        patch: {
          providerState: 'PENDING',
          providerSessionId: 'S1',
          customerAction: { type: 'OTP' },
          expiresAt,
          pollAt: [new Date(Date.now() + 60_000)],
        },
      },
      { completesOutbox: request!.id },
    );
    expect(statements).toHaveLength(1);
    // One check at a time: the poll, carrying what follows it (no later poll, then the expiry).
    expect(moved?.outbox.map((r) => [r.topic, r.payload])).toEqual([
      ['expiry-checks', { transaction_id: t.id, kind: 'poll', next_polls: [] }],
    ]);
    const rows = await db.outbox.findMany({ where: { id: { in: moved!.outbox.map((r) => r.id) } } });
    expect(rows).toHaveLength(1);
    expect((await db.outbox.findUniqueOrThrow({ where: { id: request!.id } })).completedAt).not.toBeNull();
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      providerSessionId: 'S1',
      customerAction: { type: 'OTP' },
      expiresAt,
    });
    const [event] = await db.transactionEvent.findMany({ where: { transactionId: t.id, toStatus: 'PENDING' } });
    expect(event).toMatchObject({
      fromStatus: 'INITIATED',
      cause: 'operator-ack',
      detail: { provider_state: 'PENDING' },
    });
  });

  it('from a status it may not leave: nothing moves and no job is written, but the asking job is still completed', async () => {
    const {
      transaction: t,
      outbox: [request],
    } = await cashin();
    await db.$transaction((tx) => transition(tx, { transactionId: t.id, to: 'FAILED', cause: 'test' }));
    const outboxBefore = await db.outbox.count();
    const moved = await moveNow(
      db,
      {
        transactionId: t.id,
        to: 'PENDING',
        ofType: 'CASHIN',
        cause: 'operator-ack',
        patch: { expiresAt: new Date(Date.now() + 1000) },
      },
      { completesOutbox: request!.id },
    );
    expect(moved).toBeNull();
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('FAILED');
    expect(await history(t.id)).toEqual(['null->CREATED cashin-accepted', 'CREATED->FAILED test']);
    expect(await db.outbox.count()).toBe(outboxBefore);
    expect((await db.outbox.findUniqueOrThrow({ where: { id: request!.id } })).completedAt).not.toBeNull();
  });

  it('moves only a transaction of the type named', async () => {
    const { transaction: t } = await cashin();
    expect(await moveNow(db, { transactionId: t.id, to: 'INITIATED', ofType: 'CASHOUT', cause: 'x' })).toBeNull();
    expect((await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('CREATED');
  });

  it('a move that posts or notifies goes through transition(): its journal and webhook event are written', async () => {
    const { transaction: t } = await cashin();
    const moved = await moveNow(db, {
      transactionId: t.id,
      to: 'FAILED',
      ofType: 'CASHIN',
      cause: 'test',
      patch: { failureCode: 'OPERATOR_REJECTED' },
    });
    expect(moved?.transaction.status).toBe('FAILED');
    expect(await db.journalEntry.count({ where: { transactionId: t.id, posting: 'CASHIN_RELEASED' } })).toBe(2);
    expect(await db.webhookEvent.count({ where: { transactionId: t.id } })).toBe(1);
  });
  it('reads only its own row, also in the plan PostgreSQL keeps for the statement once the table has grown past what its statistics say', async () => {
    // The plan of a named statement is made by its sixth run and kept for the connection's life: made
    // while the table is small and never analysed (after a deployment, in the first minute of a busy
    // day), it must still find the row by its key once the table has grown.
    // The generic plan from the first run on, and no ANALYZE meanwhile: what the plan cache and
    // autovacuum would otherwise decide by timing.
    const plans = await smallTablePlans(fixture, 'transactions');
    const move = (id: string) =>
      moveNow(plans.db, {
        transactionId: id,
        to: 'INITIATED',
        from: ['CREATED'],
        ofType: 'CASHIN',
        cause: 'operator-request',
      });
    try {
      for (let i = 0; i < 2; i++) await move((await cashin()).transaction.id);
      const made = await Promise.all(Array.from({ length: 300 }, () => cashin()));
      const before = await plans.rowsRead();
      for (const { transaction: t } of made.slice(0, 20)) await move(t.id);
      // A scan of the table per move would read 20 × 300 rows or more.
      expect((await plans.rowsRead()) - before).toBeLessThan(300);
    } finally {
      await plans.close();
    }
  });
});
