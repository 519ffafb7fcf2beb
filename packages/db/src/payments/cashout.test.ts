import { randomUUID } from 'node:crypto';
import { DomainError } from '@mm/domain';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { verifyLedger } from '../ledger/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import { createCashin } from './create-cashin.js';
import { CASHOUT_REQUEST_TOPIC, createCashout } from './create-cashout.js';
import { approveCashout, rejectCashout } from './decide-cashout.js';
import { transition } from './moves/transition.js';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 6 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

/** A merchant whose CI available balance is `funds`, from one successful cash-in. */
async function fundedMerchant(funds: number): Promise<string> {
  const merchantId = (await createMerchant(db, { name: 'Cash-out Test', webhookUrl: 'https://merchant.example/hooks' }))
    .id;
  const c = await createCashin(db, {
    merchantId,
    merchantOrderId: `in-${randomUUID()}`,
    amount: funds,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000001',
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: 'fp',
  });
  if (c.kind !== 'created') throw new Error('setup');
  for (const to of ['INITIATED', 'PENDING', 'SUCCESS'] as const) {
    await db.$transaction((tx) => transition(tx, { transactionId: c.transaction.id, to, cause: 'setup' }));
  }
  return merchantId;
}

const newCashout = (merchantId: string, amount: number, needsApproval: boolean) =>
  createCashout(db, {
    merchantId,
    merchantOrderId: `out-${randomUUID()}`,
    amount,
    currency: 'XOF',
    countryCode: 'CI',
    msisdn: '+2250707000002',
    reason: 'supplier payment',
    notifyUrl: null,
    requestFingerprint: 'fp-out',
    approval: needsApproval ? 'required' : 'none',
  });

async function balances(merchantId: string) {
  const rows = await db.ledgerAccount.findMany({ where: { merchantId, countryCode: 'CI' } });
  const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.balance ?? 0n);
  return { available: of('MERCHANT_AVAILABLE'), reserved: of('MERCHANT_CASHOUT_RESERVED') };
}

const outboxFor = (id: string) =>
  db.outbox.findMany({ where: { topic: CASHOUT_REQUEST_TOPIC, payload: { path: ['transaction_id'], equals: id } } });

async function expectRefused(p: Promise<unknown>, code: string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).code).toBe(code);
}

describe('cash-out in the database (decisions 7)', () => {
  it('below the threshold: CREATED, reserved from the available balance, operator request queued', async () => {
    const merchantId = await fundedMerchant(100_000);
    const r = await newCashout(merchantId, 30_000, false);
    if (r.kind !== 'created') throw new Error('not created');
    expect(r.transaction).toMatchObject({ type: 'CASHOUT', status: 'CREATED', amount: 30_000n });
    expect(r.outbox.map((o) => o.topic)).toEqual([CASHOUT_REQUEST_TOPIC]);
    expect(await balances(merchantId)).toEqual({ available: 70_000, reserved: 30_000 });
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('at the threshold: AWAITING_APPROVAL, reserved, nothing queued for the operator', async () => {
    const merchantId = await fundedMerchant(2_000_000);
    const r = await newCashout(merchantId, 1_000_000, true);
    if (r.kind !== 'created') throw new Error('not created');
    expect(r.transaction.status).toBe('AWAITING_APPROVAL');
    expect(r.outbox).toEqual([]);
    expect(await outboxFor(r.transaction.id)).toHaveLength(0);
    expect(await balances(merchantId)).toEqual({ available: 1_000_000, reserved: 1_000_000 });
  });

  it('above the available balance: INSUFFICIENT_BALANCE and nothing written', async () => {
    const merchantId = await fundedMerchant(10_000);
    const before = await db.transaction.count({ where: { merchantId } });
    await expectRefused(newCashout(merchantId, 10_001, false), 'INSUFFICIENT_BALANCE');
    await expectRefused(newCashout(merchantId, 10_001, true), 'INSUFFICIENT_BALANCE');
    expect(await db.transaction.count({ where: { merchantId } })).toBe(before);
    expect(await balances(merchantId)).toEqual({ available: 10_000, reserved: 0 });
  });

  it('approve: INITIATED with one operator request and the approver on the history; a second approval is refused', async () => {
    const merchantId = await fundedMerchant(3_000_000);
    const r = await newCashout(merchantId, 1_500_000, true);
    const id = r.transaction.id;
    const approved = await db.$transaction((tx) =>
      approveCashout(tx, { transactionId: id, decidedBy: 'approver@demo.local' }),
    );
    expect(approved.transaction.status).toBe('INITIATED');
    expect(approved.outbox.map((o) => o.topic)).toEqual([CASHOUT_REQUEST_TOPIC]);
    await expectRefused(
      db.$transaction((tx) => approveCashout(tx, { transactionId: id, decidedBy: 'other@demo.local' })),
      'INVALID_STATE',
    );
    await expectRefused(
      db.$transaction((tx) => rejectCashout(tx, { transactionId: id, decidedBy: 'other@demo.local', reason: 'late' })),
      'INVALID_STATE',
    );
    expect(await outboxFor(id)).toHaveLength(1);
    const events = await db.transactionEvent.findMany({ where: { transactionId: id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.fromStatus, e.toStatus, e.cause])).toEqual([
      [null, 'AWAITING_APPROVAL', 'cashout-accepted'],
      ['AWAITING_APPROVAL', 'INITIATED', 'cashout-approved'],
    ]);
    expect(events[1]!.detail).toEqual({ decided_by: 'approver@demo.local' });
    // Still reserved until the operator pays.
    expect(await balances(merchantId)).toEqual({ available: 1_500_000, reserved: 1_500_000 });
  });

  it('two approvals racing: exactly one wins, one operator request', async () => {
    const merchantId = await fundedMerchant(1_000_000);
    const id = (await newCashout(merchantId, 1_000_000, true)).transaction.id;
    const results = await Promise.allSettled(
      [1, 2, 3].map((n) =>
        db.$transaction((tx) => approveCashout(tx, { transactionId: id, decidedBy: `a${n}@demo.local` })),
      ),
    );
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    expect(await outboxFor(id)).toHaveLength(1);
  });

  it('reject: FAILED with the reason, reservation released, merchant notified; it can no longer be approved', async () => {
    const merchantId = await fundedMerchant(1_200_000);
    const id = (await newCashout(merchantId, 1_200_000, true)).transaction.id;
    const rejected = await db.$transaction((tx) =>
      rejectCashout(tx, { transactionId: id, decidedBy: 'approver@demo.local', reason: 'beneficiary not verified' }),
    );
    expect(rejected.transaction).toMatchObject({
      status: 'FAILED',
      failureCode: 'REJECTED_BY_APPROVER',
      failureReason: 'beneficiary not verified',
    });
    expect(await balances(merchantId)).toEqual({ available: 1_200_000, reserved: 0 });
    const hooks = await db.webhookEvent.findMany({ where: { transactionId: id } });
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.payload).toMatchObject({
      event: 'transaction.status_changed',
      transaction_id: id,
      type: 'CASHOUT',
      status: 'FAILED',
      failure_code: 'REJECTED_BY_APPROVER',
      failure_reason: 'beneficiary not verified',
    });
    await expectRefused(
      db.$transaction((tx) => approveCashout(tx, { transactionId: id, decidedBy: 'approver@demo.local' })),
      'INVALID_STATE',
    );
    expect(await outboxFor(id)).toHaveLength(0);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('operator paid: the reservation is paid out; refused: given back; both notified, ledger clean', async () => {
    const merchantId = await fundedMerchant(50_000);
    const paid = (await newCashout(merchantId, 20_000, false)).transaction.id;
    const refused = (await newCashout(merchantId, 10_000, false)).transaction.id;
    for (const id of [paid, refused])
      await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'INITIATED', cause: 'cashout-sent' }));
    await db.$transaction((tx) =>
      transition(tx, {
        transactionId: paid,
        to: 'SUCCESS',
        cause: 'operator',
        patch: { providerState: 'OK', providerTxId: 'DB1' },
      }),
    );
    await db.$transaction((tx) =>
      transition(tx, {
        transactionId: refused,
        to: 'FAILED',
        cause: 'operator',
        patch: { providerState: 'FAILED', failureCode: 'OPERATOR_REJECTED', failureReason: 'BENEFICIARY_NOT_FOUND' },
      }),
    );
    expect(await balances(merchantId)).toEqual({ available: 30_000, reserved: 0 });
    expect(await db.webhookEvent.count({ where: { transactionId: { in: [paid, refused] } } })).toBe(2);
    const failedEvent = await db.transactionEvent.findFirst({ where: { transactionId: refused, toStatus: 'FAILED' } });
    expect(failedEvent?.detail).toEqual({
      provider_state: 'FAILED',
      failure_code: 'OPERATOR_REJECTED',
      failure_reason: 'BENEFICIARY_NOT_FOUND',
    });
    expect((await verifyLedger(db)).problems).toEqual([]);
  });

  it('ledger verification notices a cash-out reservation that does not match', async () => {
    const merchantId = await fundedMerchant(5_000);
    await newCashout(merchantId, 5_000, false);
    await db.$executeRaw`UPDATE transactions SET status = 'SUCCESS' WHERE merchant_id = ${merchantId}::uuid AND type = 'CASHOUT'`;
    const checks = new Set((await verifyLedger(db)).problems.map((p) => p.check));
    expect(checks).toContain('cash-out reservation differs from the cash-outs not yet paid');
    expect(checks).toContain('a cash-out journal does not match its status');
    await db.$executeRaw`UPDATE transactions SET status = 'CREATED' WHERE merchant_id = ${merchantId}::uuid AND type = 'CASHOUT'`;
  });
});
