import pg from 'pg';
import { createDb, type Db } from '../../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../../merchants/index.js';
import { applyOperatorResult, applyOperatorResultIfUnchanged } from './apply-operator-result.js';
import { createCashin } from '../create-cashin.js';
import { lockForMove, type SeenTransaction } from './transition.js';
import { moveNow } from './move-now.js';
import { createDbTestDatabase, type DbTestDatabase } from '@mm/testing/test-database';

const paid = { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'TX1', failureReason: null } as const;

describe('a cash-in moved as it was seen (moveIfUnchanged): one statement, or nothing when the row changed', () => {
  let fixture: DbTestDatabase;
  let db: Db;
  let merchantId: string;
  /** A client on the same database that records every statement it sends. */
  let counted: Db;
  const statements: string[] = [];
  beforeAll(async () => {
    fixture = await createDbTestDatabase();
    db = fixture.db;
    for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
    merchantId = (await createMerchant(db, { name: 'M', webhookUrl: 'https://merchant.example/hooks' })).id;
    counted = createDb({ databaseUrl: fixture.database.url, poolSize: 2, onQuery: (q) => statements.push(q) });
  });
  afterAll(async () => {
    await counted.$disconnect();
    await fixture.close();
  });

  let n = 0;
  /** A cash-in acknowledged by the operator, and the row its acknowledgement returned. */
  async function acknowledged(): Promise<SeenTransaction> {
    const order = `seen-${++n}`;
    const r = await createCashin(db, {
      merchantId,
      merchantOrderId: order,
      amount: 1500,
      currency: 'XOF',
      countryCode: 'CI',
      msisdn: '+2250707000001',
      motif: null,
      returnUrl: null,
      notifyUrl: null,
      metadata: null,
      requestFingerprint: order,
    });
    if (r.kind !== 'created') throw new Error('not created');
    await moveNow(db, {
      transactionId: r.transaction.id,
      to: 'INITIATED',
      ofType: 'CASHIN',
      cause: 'operator-request',
    });
    const moved = await moveNow(db, {
      transactionId: r.transaction.id,
      to: 'PENDING',
      ofType: 'CASHIN',
      cause: 'operator-ack',
      patch: { providerState: 'PENDING', expiresAt: new Date(Date.now() + 300_000) },
    });
    if (!moved?.seen) throw new Error('no row seen');
    return moved.seen;
  }

  /** Every row a capture writes, in a form two captures of different cash-ins can be compared by. */
  async function writesOf(id: string) {
    const [t, history, events, journal, outbox] = await Promise.all([
      db.transaction.findUniqueOrThrow({ where: { id } }),
      db.transactionEvent.findMany({ where: { transactionId: id }, orderBy: { id: 'asc' } }),
      db.webhookEvent.findMany({ where: { transactionId: id } }),
      db.journalEntry.findMany({ where: { transactionId: id }, orderBy: { id: 'asc' }, include: { account: true } }),
      db.outbox.findMany({ where: { topic: 'webhook-deliveries' } }),
    ]);
    const eventIds = new Set(events.map((e) => e.id));
    return {
      transaction: {
        status: t.status,
        providerState: t.providerState,
        providerTxnStatus: t.providerTxnStatus,
        providerTxId: t.providerTxId,
        completed: t.completedAt !== null,
      },
      history: history.map((e) => `${e.fromStatus}->${e.toStatus} ${e.cause} ${JSON.stringify(e.detail)}`),
      events: events.map((e) => ({
        type: e.eventType,
        status: e.status,
        target: e.targetUrl,
        due: e.nextAttemptAt !== null,
        payload: {
          ...(e.payload as object),
          event_id: 'x',
          created_at: 'x',
          timestamp: 'x',
          transaction_id: 'x',
          merchant_order_id: 'x',
        },
      })),
      journal: journal.map((j) => `${j.posting} ${j.account.kind} ${j.amount}`),
      jobs: outbox.filter((o) => eventIds.has((o.payload as { event_id: string }).event_id)).length,
    };
  }

  it("writes in one autocommit statement what the move under the row's lock writes: history, webhook event and its job, journal", async () => {
    const seen = await acknowledged();
    statements.length = 0;
    const moved = await applyOperatorResultIfUnchanged(counted, seen, paid, 'operator-result:callback');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^\s*WITH moved AS \(UPDATE transactions/);
    if (moved === null || moved === 'changed') throw new Error(`not moved: ${moved}`);
    expect(moved.from).toBe('PENDING');
    expect(moved.transaction).toEqual(await db.transaction.findUniqueOrThrow({ where: { id: seen.id } }));
    expect(moved.outbox.map((r) => r.topic)).toEqual(['webhook-deliveries']);

    const other = await acknowledged();
    await db.$transaction(async (tx) =>
      applyOperatorResult(tx, (await lockForMove(tx, { id: other.id }))!, paid, 'operator-result:callback'),
    );
    const asSeen = await writesOf(seen.id);
    expect(asSeen).toEqual(await writesOf(other.id));
    expect(asSeen.transaction.status).toBe('SUCCESS');
    expect(asSeen.events).toHaveLength(1);
    expect(asSeen.events[0]).toMatchObject({ target: 'https://merchant.example/hooks', due: true });
    expect(asSeen.journal.length).toBeGreaterThan(0);
    expect(asSeen.jobs).toBe(1);
  });

  it('writes nothing and says changed when the row was updated since it was seen', async () => {
    const seen = await acknowledged();
    const before = await writesOf(seen.id);
    // A status poll's answer, say: the row is another version, whatever its status.
    await db.transaction.update({ where: { id: seen.id }, data: { providerState: 'PENDING' } });
    expect(await applyOperatorResultIfUnchanged(db, seen, paid, 'operator-result:callback')).toBe('changed');
    expect(await writesOf(seen.id)).toEqual(before);
  });

  it("writes nothing and says changed when the merchant's webhook URL changed since: the event goes where the merchant now says", async () => {
    const seen = await acknowledged();
    const before = await writesOf(seen.id);
    await db.merchant.update({ where: { id: merchantId }, data: { webhookUrl: 'https://merchant.example/new-hooks' } });
    try {
      expect(await applyOperatorResultIfUnchanged(db, seen, paid, 'operator-result:callback')).toBe('changed');
      expect(await writesOf(seen.id)).toEqual(before);
    } finally {
      await db.merchant.update({ where: { id: merchantId }, data: { webhookUrl: 'https://merchant.example/hooks' } });
    }
  });

  it('waits for a move under way on the row and then says changed; a lock alone (no update) lets it move', async () => {
    const other = new pg.Client({ connectionString: fixture.database.url });
    await other.connect();
    try {
      const moving = await acknowledged();
      const journalBefore = await db.journalEntry.count({ where: { transactionId: moving.id } });
      await other.query('BEGIN');
      await other.query(`UPDATE transactions SET status = 'FAILED', failure_code = 'EXPIRED_BY_TEST' WHERE id = $1`, [
        moving.id,
      ]);
      const waiting = applyOperatorResultIfUnchanged(db, moving, paid, 'operator-result:callback');
      await waitForLockWait(other, moving.id);
      await other.query('COMMIT');
      expect(await waiting).toBe('changed');
      expect((await db.transaction.findUniqueOrThrow({ where: { id: moving.id } })).status).toBe('FAILED');
      expect(await db.journalEntry.count({ where: { transactionId: moving.id } })).toBe(journalBefore);
      expect(await db.webhookEvent.count({ where: { transactionId: moving.id } })).toBe(0);

      const locked = await acknowledged();
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM transactions WHERE id = $1 FOR UPDATE', [locked.id]);
      const after = applyOperatorResultIfUnchanged(db, locked, paid, 'operator-result:callback');
      await waitForLockWait(other, locked.id);
      await other.query('COMMIT');
      expect(await after).toMatchObject({ from: 'PENDING', transaction: { status: 'SUCCESS' } });
    } finally {
      await other.end();
    }
  });

  it('refuses a seen row whose status sends webhooks: its held check could miss an earlier event released meanwhile', async () => {
    const seen = await acknowledged();
    await expect(
      applyOperatorResultIfUnchanged(db, { ...seen, status: 'EXPIRED' }, paid, 'operator-result:callback'),
    ).rejects.toThrow(/may have webhook events/);
  });

  it('sends nothing for a result that decides nothing (still pending)', async () => {
    const seen = await acknowledged();
    statements.length = 0;
    expect(
      await applyOperatorResultIfUnchanged(
        counted,
        seen,
        { ...paid, providerState: 'PENDING', providerTxnStatus: null },
        'operator-result:callback',
      ),
    ).toBeNull();
    expect(statements).toEqual([]);
  });
});

/** Until another session waits for a lock (the statement under test is blocked behind `holder`), or 10 s. */
async function waitForLockWait(holder: pg.Client, transactionId: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await holder.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()`,
    );
    if (rows[0]!.n > 0) return;
    if (Date.now() > deadline) throw new Error(`no statement waited for the lock of ${transactionId} within 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
