import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import type { TransactionStatus } from '@mm/domain';
import { createDb, type Db } from '../../database/index.js';
import { post } from '../../ledger/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../../merchants/index.js';
import { createCashin } from '../create-cashin.js';
import { EXPIRY_TOPIC, transition } from './transition.js';
import { WEBHOOK_TOPIC } from '../../webhooks/index.js';

let database: TestDatabase;
let db: Db;
let merchantId: string;
let seq = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 5 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  merchantId = (await createMerchant(db, { name: 'Transition Test', webhookUrl: 'https://merchant.example/hooks' })).id;
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

async function newCashin(amount = 5000, countryCode = 'CI') {
  const result = await createCashin(db, {
    merchantId,
    merchantOrderId: `order-${++seq}-${randomUUID()}`,
    amount,
    currency: countryCode === 'CM' ? 'XAF' : 'XOF',
    countryCode,
    msisdn: '+2250707000001',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (result.kind !== 'created') throw new Error('cash-in not created');
  return result.transaction;
}

const move = (transactionId: string, to: TransactionStatus, extra: Partial<Parameters<typeof transition>[1]> = {}) =>
  db.$transaction((tx) => transition(tx, { transactionId, to, cause: 'test', ...extra }));

async function moveThrough(transactionId: string, ...path: TransactionStatus[]) {
  for (const to of path) {
    if (!(await move(transactionId, to))) throw new Error(`setup move to ${to} refused`);
  }
}

/** Everything a transition may write, counted for one transaction. */
async function footprint(transactionId: string) {
  const [events, entries, webhooks, outbox] = await Promise.all([
    db.transactionEvent.count({ where: { transactionId } }),
    db.journalEntry.count({ where: { transactionId } }),
    db.webhookEvent.count({ where: { transactionId } }),
    db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM outbox WHERE payload->>'transaction_id' = ${transactionId}
      OR id IN (SELECT id FROM webhook_events WHERE transaction_id = ${transactionId}::uuid)`,
  ]);
  return { events, entries, webhooks, outbox: Number(outbox[0]!.n) };
}

async function balance(kind: string, countryCode = 'CI'): Promise<bigint> {
  const account = await db.ledgerAccount.findFirst({ where: { merchantId, countryCode, kind } });
  return account?.balance ?? 0n;
}

async function journalSums(transactionId: string) {
  return db.$queryRaw<{ journal_id: string; posting: string; total: bigint; lines: bigint }[]>`
    SELECT journal_id::text, min(posting) AS posting, sum(amount)::bigint AS total, count(*)::bigint AS lines
      FROM journal_entries WHERE transaction_id = ${transactionId}::uuid GROUP BY journal_id ORDER BY min(id)`;
}

describe('transition(): the one way a transaction changes state', () => {
  it.each([
    [[], 'SUCCESS'],
    [[], 'PENDING'],
    [['INITIATED'], 'EXPIRED'],
    [['INITIATED', 'PENDING', 'FAILED'], 'SUCCESS'],
    [['INITIATED', 'PENDING', 'SUCCESS'], 'FAILED'],
    [['INITIATED', 'PENDING', 'EXPIRED'], 'FAILED'],
  ] as [TransactionStatus[], TransactionStatus][])(
    'after %j, a forbidden move to %s returns null and writes nothing',
    async (path, to) => {
      const t = await newCashin();
      await moveThrough(t.id, ...path);
      const before = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
      const footprintBefore = await footprint(t.id);
      const pendingBefore = await balance('MERCHANT_PENDING');
      const availableBefore = await balance('MERCHANT_AVAILABLE');

      expect(await move(t.id, to, { patch: { failureCode: 'UNKNOWN' } })).toBeNull();

      expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toEqual(before);
      expect(await footprint(t.id)).toEqual(footprintBefore);
      expect(await balance('MERCHANT_PENDING')).toBe(pendingBefore);
      expect(await balance('MERCHANT_AVAILABLE')).toBe(availableBefore);
    },
  );

  it('returns null for an unknown transaction id', async () => {
    expect(await move(randomUUID(), 'INITIATED')).toBeNull();
  });

  it('a terminal move writes the status, completed_at, one history row, a balanced journal and exactly one webhook event with its outbox row', async () => {
    const t = await newCashin(7000);
    await moveThrough(t.id, 'INITIATED', 'PENDING');
    const pending = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
    expect(pending.completedAt).toBeNull();
    const before = await footprint(t.id);
    const pendingBalance = await balance('MERCHANT_PENDING');
    const availableBalance = await balance('MERCHANT_AVAILABLE');
    const now = new Date('2030-01-02T03:04:05.678Z');

    const outcome = await move(t.id, 'SUCCESS', {
      cause: 'operator-result:callback',
      now,
      patch: { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'MP42' },
    });

    expect(outcome).not.toBeNull();
    expect(outcome!.from).toBe('PENDING');
    const row = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
    expect(row).toMatchObject({
      status: 'SUCCESS',
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: 'MP42',
      completedAt: now,
      updatedAt: now,
    });
    expect(outcome!.transaction).toEqual(row);

    const after = await footprint(t.id);
    expect(after.events - before.events).toBe(1);
    expect(after.webhooks - before.webhooks).toBe(1);
    expect(after.outbox - before.outbox).toBe(1);
    const events = await db.transactionEvent.findMany({ where: { transactionId: t.id }, orderBy: { id: 'asc' } });
    expect(events.at(-1)).toMatchObject({
      fromStatus: 'PENDING',
      toStatus: 'SUCCESS',
      cause: 'operator-result:callback',
      createdAt: now,
    });

    const journals = await journalSums(t.id);
    expect(journals.map((j) => j.posting)).toEqual(['CASHIN_PENDING', 'CASHIN_CAPTURED']);
    for (const j of journals) {
      expect(j.total).toBe(0n);
      expect(j.lines).toBe(2n);
    }
    expect(await balance('MERCHANT_PENDING')).toBe(pendingBalance - 7000n);
    expect(await balance('MERCHANT_AVAILABLE')).toBe(availableBalance + 7000n);

    const [event] = await db.webhookEvent.findMany({ where: { transactionId: t.id } });
    expect(event).toMatchObject({
      status: 'PENDING',
      eventType: 'transaction.status_changed',
      targetUrl: 'https://merchant.example/hooks',
    });
    expect(event!.payload).toMatchObject({
      event_id: event!.id,
      transaction_id: t.id,
      status: 'SUCCESS',
      amount: 7000,
      provider_tx_id: 'MP42',
    });
    const outbox = await db.outbox.findUniqueOrThrow({ where: { id: event!.id } });
    expect(outbox).toMatchObject({ topic: WEBHOOK_TOPIC, completedAt: null, payload: { event_id: event!.id } });
    expect(outcome!.outbox.map((o) => o.id)).toEqual([event!.id]);
  });

  it('a duplicate of the terminal move changes nothing', async () => {
    const t = await newCashin();
    await moveThrough(t.id, 'INITIATED', 'PENDING', 'SUCCESS');
    const before = await footprint(t.id);
    const row = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
    expect(await move(t.id, 'SUCCESS')).toBeNull();
    expect(await footprint(t.id)).toEqual(before);
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toEqual(row);
  });

  it('concurrent terminal moves of one transaction: exactly one leaves PENDING; only a late confirmation may follow an expiry', async () => {
    const t = await newCashin();
    await moveThrough(t.id, 'INITIATED', 'PENDING');
    const outcomes = await Promise.all([
      move(t.id, 'SUCCESS'),
      move(t.id, 'FAILED'),
      move(t.id, 'EXPIRED'),
      move(t.id, 'SUCCESS'),
    ]);
    const winners = outcomes.filter((o) => o !== null);
    // Whichever takes the row lock first wins. When that is the expiry, a SUCCESS waiting behind it is
    // the operator's late confirmation (decisions 4: EXPIRED -> SUCCESS), a second, legal move.
    expect(winners.filter((w) => w.from === 'PENDING')).toHaveLength(1);
    const after = winners.filter((w) => w.from !== 'PENDING').map((w) => `${w.from}->${w.transaction.status}`);
    expect([[], ['EXPIRED->SUCCESS']]).toContainEqual(after);
    const final = await db.transaction.findUniqueOrThrow({ where: { id: t.id } });
    expect(final.status).toBe(after.length === 0 ? winners[0]!.transaction.status : 'SUCCESS');
    expect(await db.transactionEvent.count({ where: { transactionId: t.id, fromStatus: 'PENDING' } })).toBe(1);
    expect(await db.webhookEvent.count({ where: { transactionId: t.id } })).toBe(winners.length);
    for (const j of await journalSums(t.id)) expect(j.total).toBe(0n);
  });

  it('an expiry racing the late confirmation: expired first, then SUCCESS; one webhook each, the second held behind the first', async () => {
    const t = await newCashin();
    await moveThrough(t.id, 'INITIATED', 'PENDING', 'EXPIRED');
    const outcomes = await Promise.all([move(t.id, 'SUCCESS'), move(t.id, 'SUCCESS'), move(t.id, 'FAILED')]);
    expect(outcomes.filter((o) => o !== null).map((o) => `${o!.from}->${o!.transaction.status}`)).toEqual([
      'EXPIRED->SUCCESS',
    ]);
    const events = await db.webhookEvent.findMany({ where: { transactionId: t.id }, orderBy: { seq: 'asc' } });
    expect(
      events.map((e) => [(e.payload as { status: string }).status, e.nextAttemptAt === null ? 'held' : 'due']),
    ).toEqual([
      ['EXPIRED', 'due'],
      ['SUCCESS', 'held'],
    ]);
    for (const j of await journalSums(t.id)) expect(j.total).toBe(0n);
  });

  it('a move to PENDING with expiresAt schedules the expiry check through the outbox, and completes nothing', async () => {
    const t = await newCashin();
    await moveThrough(t.id, 'INITIATED');
    const expiresAt = new Date(Date.now() + 300_000);
    const outcome = await move(t.id, 'PENDING', { patch: { providerSessionId: 'SES-1', expiresAt } });
    expect(outcome!.outbox).toHaveLength(1);
    expect(outcome!.outbox[0]).toMatchObject({
      topic: EXPIRY_TOPIC,
      payload: { transaction_id: t.id },
      availableAt: expiresAt,
    });
    expect(await db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      expiresAt,
      completedAt: null,
      providerSessionId: 'SES-1',
    });
    expect(await db.webhookEvent.count({ where: { transactionId: t.id } })).toBe(0);
  });

  it('EXPIRED then a late SUCCESS: two webhook events, the second held behind the first, every journal balanced', async () => {
    const t = await newCashin(3000);
    await moveThrough(t.id, 'INITIATED', 'PENDING', 'EXPIRED');
    const late = await move(t.id, 'SUCCESS');
    expect(late!.from).toBe('EXPIRED');
    const journals = await journalSums(t.id);
    expect(journals.map((j) => j.posting)).toEqual(['CASHIN_PENDING', 'CASHIN_RELEASED', 'CASHIN_LATE_CAPTURED']);
    for (const j of journals) expect(j.total).toBe(0n);
    const events = await db.webhookEvent.findMany({ where: { transactionId: t.id }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => (e.payload as { status: string }).status)).toEqual(['EXPIRED', 'SUCCESS']);
    // Delivered in order: the SUCCESS event waits until the EXPIRED one ends.
    expect(late!.outbox).toEqual([]);
    expect(events[1]!.nextAttemptAt).toBeNull();
  });
});

describe('ledger integrity enforced by the database', () => {
  it('rejects at commit a journal that does not balance (deferred trigger), and keeps nothing of it', async () => {
    const t = await newCashin();
    const account = await db.ledgerAccount.findFirstOrThrow({
      where: { merchantId, countryCode: 'CI', kind: 'MERCHANT_PENDING' },
    });
    const journalId = randomUUID();
    let insertedInside = false;
    await expect(
      db.$transaction(async (tx) => {
        await tx.journalEntry.create({
          data: { journalId, accountId: account.id, amount: 100n, posting: 'TEST_UNBALANCED', transactionId: t.id },
        });
        // The trigger is deferred: the insert itself succeeds, the commit fails.
        insertedInside = (await tx.journalEntry.count({ where: { journalId } })) === 1;
      }),
    ).rejects.toThrow(/does not balance/);
    expect(insertedInside).toBe(true);
    expect(await db.journalEntry.count({ where: { journalId } })).toBe(0);
  });

  it('accepts a hand-written journal that balances (the trigger is not simply refusing everything)', async () => {
    const t = await newCashin();
    const pendingAccount = await db.ledgerAccount.findFirstOrThrow({
      where: { merchantId, countryCode: 'CI', kind: 'MERCHANT_PENDING' },
    });
    const receivable = await db.ledgerAccount.findFirstOrThrow({
      where: { merchantId: null, countryCode: 'CI', kind: 'OPERATOR_RECEIVABLE' },
    });
    const journalId = randomUUID();
    await db.$transaction(async (tx) => {
      await tx.journalEntry.createMany({
        data: [
          { journalId, accountId: pendingAccount.id, amount: 100n, posting: 'TEST_BALANCED', transactionId: t.id },
          { journalId, accountId: receivable.id, amount: -100n, posting: 'TEST_BALANCED', transactionId: t.id },
        ],
      });
    });
    expect(await db.journalEntry.count({ where: { journalId } })).toBe(2);
  });

  it('a merchant account cannot go negative: a posting debiting more than the balance throws and changes nothing', async () => {
    // Cameroun: no other test moves money there, so the balance is known.
    const t = await newCashin(2500, 'CM');
    await moveThrough(t.id, 'INITIATED', 'PENDING', 'SUCCESS');
    const scope = { merchantId, countryCode: 'CM', currency: 'XAF' };
    expect(await balance('MERCHANT_AVAILABLE', 'CM')).toBe(2500n);
    const debit = (amount: number) => ({
      name: 'TEST_PAYOUT',
      lines: [
        { account: 'MERCHANT_AVAILABLE' as const, amount: -amount },
        { account: 'OPERATOR_RECEIVABLE' as const, amount },
      ],
    });
    const journals = await db.journalEntry.count({ where: { posting: 'TEST_PAYOUT' } });

    await expect(db.$transaction((tx) => post(tx, scope, debit(2501), null))).rejects.toThrow(
      /ledger_accounts_merchant_non_negative|check constraint/i,
    );
    expect(await balance('MERCHANT_AVAILABLE', 'CM')).toBe(2500n);
    expect(await db.journalEntry.count({ where: { posting: 'TEST_PAYOUT' } })).toBe(journals);

    // Debiting exactly the balance is allowed and leaves zero.
    await db.$transaction((tx) => post(tx, scope, debit(2500), null));
    expect(await balance('MERCHANT_AVAILABLE', 'CM')).toBe(0n);
  });

  it('a posting on a merchant account that does not exist yet cannot start it negative', async () => {
    const other = (await createMerchant(db, { name: 'Empty Merchant', webhookUrl: null })).id;
    const scope = { merchantId: other, countryCode: 'SN', currency: 'XOF' };
    await expect(
      db.$transaction((tx) =>
        post(
          tx,
          scope,
          {
            name: 'TEST_OVERDRAFT',
            lines: [
              { account: 'MERCHANT_AVAILABLE', amount: -1 },
              { account: 'OPERATOR_RECEIVABLE', amount: 1 },
            ],
          },
          null,
        ),
      ),
    ).rejects.toThrow();
    expect(await db.ledgerAccount.count({ where: { merchantId: other } })).toBe(0);
  });
});
