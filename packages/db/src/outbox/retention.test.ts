import { randomUUID } from 'node:crypto';
import { createMerchantTestDatabase, type MerchantTestDatabase } from '@mm/testing/test-database';
import type { Db } from '../database/index.js';
import { recordAudit } from '../staff/index.js';
import { insertOutbox } from './outbox.js';
import { pruneOperationalRows, TABLE_RETENTION, type RetentionPolicy } from './retention.js';
import { createCashin, transition } from '../payments/index.js';

const DAY_MS = 24 * 3600 * 1000;
const policy: RetentionPolicy = { outboxDays: 7, webhookAttemptsDays: 90, batchSize: 10 };
const KEPT = Object.entries(TABLE_RETENTION)
  .filter(([, p]) => p === 'kept')
  .map(([t]) => t);

describe('retention of operational rows', () => {
  let fixture: MerchantTestDatabase;
  let db: Db;
  const now = new Date();
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);

  beforeAll(async () => {
    fixture = await createMerchantTestDatabase(4);
    db = fixture.db;
  });
  afterAll(async () => {
    await fixture.close();
  });

  const counts = async (tables: string[]) =>
    Object.fromEntries(
      await Promise.all(
        tables.map(
          async (t) =>
            [t, Number((await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${t}`))[0]!.n)] as const,
        ),
      ),
    );

  /** Successful cash-ins (transaction, history, journal, outbox rows), all a year old: money is kept whatever its age. */
  async function yearOldCashins(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const r = await createCashin(db, {
        merchantId: fixture.merchantId,
        merchantOrderId: `old-${randomUUID()}`,
        amount: 1000,
        currency: 'XOF',
        countryCode: 'CI',
        msisdn: '+2250707000055',
        motif: null,
        returnUrl: null,
        notifyUrl: null,
        metadata: null,
        requestFingerprint: randomUUID(),
      });
      if (r.kind !== 'created') throw new Error('not created');
      for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const) {
        await db.$transaction((tx) =>
          transition(tx, {
            transactionId: r.transaction.id,
            to,
            cause: 'test',
            patch: to === 'PENDING' ? { expiresAt: now } : {},
          }),
        );
      }
    }
    await db.$executeRaw`UPDATE transactions SET created_at = ${ago(365)}, updated_at = ${ago(365)}, completed_at = ${ago(365)}`;
    await db.$executeRaw`UPDATE transaction_events SET created_at = ${ago(365)}`;
    await db.$executeRaw`UPDATE journal_entries SET created_at = ${ago(365)}`;
    await recordAudit(db, { staffId: null, actor: 'someone@example.test', action: 'login' });
  }

  async function outboxRow(state: {
    completedDaysAgo?: number;
    parked?: true;
    createdDaysAgo?: number;
  }): Promise<string> {
    const row = await db.$transaction((tx) =>
      insertOutbox(tx, { topic: 'refund-requests', payload: { refund_id: randomUUID() } }),
    );
    await db.outbox.update({
      where: { id: row.id },
      data: {
        createdAt: ago(state.createdDaysAgo ?? state.completedDaysAgo ?? 0),
        completedAt: state.completedDaysAgo === undefined ? null : ago(state.completedDaysAgo),
        parkedAt: state.parked ? ago(30) : null,
      },
    });
    return row.id;
  }

  /** A webhook event and its attempts, the attempts made `attemptsDaysAgo`, the event last changed `endedDaysAgo`. */
  async function webhookEvent(
    status: 'DELIVERED' | 'ABANDONED' | 'PENDING' | 'NO_TARGET',
    endedDaysAgo: number,
    attempts: number,
    attemptsDaysAgo = endedDaysAgo,
  ): Promise<string> {
    const id = randomUUID();
    await db.webhookEvent.create({
      data: {
        id,
        merchantId: fixture.merchantId,
        eventType: 'transaction.status_changed',
        payload: {},
        status,
        attemptCount: attempts,
        createdAt: ago(attemptsDaysAgo),
        updatedAt: ago(endedDaysAgo),
      },
    });
    for (let no = 1; no <= attempts; no++) {
      await db.webhookAttempt.create({
        data: {
          eventId: id,
          attemptNo: no,
          targetUrl: 'https://merchant.example/hooks',
          statusCode: 500,
          latencyMs: 10,
          success: false,
          createdAt: ago(attemptsDaysAgo),
        },
      });
    }
    return id;
  }
  const attemptsOf = async (eventId: string) => db.webhookAttempt.count({ where: { eventId } });

  it('classifies every table of the database: kept for ever, or pruned', async () => {
    const tables = await db.$queryRaw<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`;
    expect(tables.map((t) => t.table_name).sort()).toEqual(Object.keys(TABLE_RETENTION).sort());
    expect(KEPT).toEqual(
      expect.arrayContaining([
        'audit_log',
        'journal_entries',
        'ledger_accounts',
        'transactions',
        'refunds',
        'transaction_events',
        'webhook_events',
      ]),
    );
  });

  it("deletes completed outbox rows past the retention and finished events' attempts past theirs, in batches; keeps the rest, and every money and audit row", async () => {
    await yearOldCashins(3);
    // The cash-ins' own rows, completed long ago, join the old ones: more rows than a batch holds.
    await db.$executeRaw`UPDATE outbox SET completed_at = ${ago(30)}, created_at = ${ago(30)}`;
    const cashinRows = await db.outbox.count();
    const oldCompleted = await Promise.all(Array.from({ length: 22 }, () => outboxRow({ completedDaysAgo: 8 })));
    const recentCompleted = await outboxRow({ completedDaysAgo: 6 });
    const openOld = await outboxRow({ createdDaysAgo: 60 });
    const parkedOld = await outboxRow({ createdDaysAgo: 60, parked: true });

    const delivered = await webhookEvent('DELIVERED', 100, 2);
    const abandoned = await webhookEvent('ABANDONED', 95, 7);
    const deliveredRecently = await webhookEvent('DELIVERED', 10, 1);
    // Re-sent by hand after its first round was abandoned long ago: being delivered, its history stays.
    const resent = await webhookEvent('PENDING', 100, 7);
    // Abandoned again recently after a re-send: its first round is old, but an event's history goes whole.
    const abandonedAgain = await webhookEvent('ABANDONED', 10, 14, 120);
    const noTarget = await webhookEvent('NO_TARGET', 200, 0);

    const keptBefore = await counts(KEPT);
    expect(keptBefore).toMatchObject({ transactions: 3, audit_log: 1 });
    const batches: [string, number][] = [];
    const deleted = await pruneOperationalRows(db, policy, now, (table, n) => batches.push([table, n]));

    const expectedOutbox = cashinRows + oldCompleted.length;
    expect(deleted).toEqual({ outbox: expectedOutbox, webhook_attempts: 9 });
    const fullBatches = Math.floor(expectedOutbox / policy.batchSize);
    expect(fullBatches).toBeGreaterThanOrEqual(2);
    expect(batches.filter(([t]) => t === 'outbox').map(([, n]) => n)).toEqual(
      [...Array<number>(fullBatches).fill(policy.batchSize), expectedOutbox % policy.batchSize].filter((n) => n > 0),
    );
    expect(await db.outbox.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).toEqual(
      [recentCompleted, openOld, parkedOld].sort().map((id) => ({ id })),
    );

    expect(await attemptsOf(delivered)).toBe(0);
    expect(await attemptsOf(abandoned)).toBe(0);
    expect(await attemptsOf(deliveredRecently)).toBe(1);
    expect(await attemptsOf(resent)).toBe(7);
    expect(await attemptsOf(abandonedAgain)).toBe(14);
    expect(
      await db.webhookEvent.count({
        where: { id: { in: [delivered, abandoned, deliveredRecently, resent, abandonedAgain, noTarget] } },
      }),
    ).toBe(6);

    expect(await counts(KEPT)).toEqual(keptBefore);
    // Idempotent: nothing left to delete.
    expect(await pruneOperationalRows(db, policy, now)).toEqual({ outbox: 0, webhook_attempts: 0 });
  });

  it('runs on several replicas at once: every eligible row is deleted once, none waits on another run', async () => {
    const old = await Promise.all(Array.from({ length: 45 }, () => outboxRow({ completedDaysAgo: 9 })));
    const events = await Promise.all(Array.from({ length: 6 }, () => webhookEvent('DELIVERED', 100, 3)));
    const runs = await Promise.all([1, 2, 3].map(() => pruneOperationalRows(db, { ...policy, batchSize: 4 }, now)));
    expect(runs.reduce((sum, r) => sum + r.outbox, 0)).toBe(old.length);
    expect(runs.reduce((sum, r) => sum + r.webhook_attempts, 0)).toBe(events.length * 3);
    expect(await db.outbox.count({ where: { id: { in: old } } })).toBe(0);
    // A run that came back short because another held the rows leaves nothing behind: a last run finds nothing.
    expect(await pruneOperationalRows(db, policy, now)).toEqual({ outbox: 0, webhook_attempts: 0 });
  });
});
