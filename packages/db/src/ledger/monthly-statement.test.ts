import { randomUUID } from 'node:crypto';
import type { OperatorResult } from '@mm/domain';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';
import { createDb, type Db } from '../database/index.js';
import { createMerchant, SEED_SUBSIDIARIES, upsertSubsidiary } from '../merchants/index.js';
import {
  applyOperatorResult,
  completeRefund,
  createCashin,
  createCashout,
  createRefund,
  transition,
} from '../payments/index.js';
import { verifyLedger } from './index.js';
import { monthlyStatement, STATEMENT_ACCOUNT_KINDS, statementMonth, type StatementRow } from './monthly-statement.js';

const CURRENCY: Record<string, string> = { CI: 'XOF', CM: 'XAF' };
const MSISDN: Record<string, string> = { CI: '+2250707000001', CM: '+237670000001' };
const OK: OperatorResult = { providerState: 'OK', providerTxnStatus: '200', providerTxId: 'OP', failureReason: null };

let database: TestDatabase;
let db: Db;
let merchant: string;
let other: string;

/** Runs `work` (the real @mm/db moves) and dates every journal entry it wrote at `when`. */
async function at<T>(when: string, work: () => Promise<T>): Promise<T> {
  const [before] = await db.$queryRaw<{ id: bigint }[]>`SELECT coalesce(max(id), 0) AS id FROM journal_entries`;
  const result = await work();
  await db.$executeRaw`UPDATE journal_entries SET created_at = ${new Date(when)} WHERE id > ${before!.id}`;
  return result;
}

async function cashin(merchantId: string, country: string, amount: number, to: 'PENDING' | 'SUCCESS' = 'SUCCESS') {
  const order = `order-${randomUUID()}`;
  const created = await createCashin(db, {
    merchantId,
    merchantOrderId: order,
    amount,
    currency: CURRENCY[country]!,
    countryCode: country,
    msisdn: MSISDN[country]!,
    motif: null,
    returnUrl: null,
    notifyUrl: null,
    metadata: null,
    requestFingerprint: order,
  });
  if (created.kind !== 'created') throw new Error('cash-in not created');
  const id = created.transaction.id;
  await db.$transaction(async (tx) => {
    await transition(tx, { transactionId: id, to: 'INITIATED', cause: 'test' });
    await transition(tx, { transactionId: id, to: 'PENDING', cause: 'test' });
  });
  if (to === 'SUCCESS') await db.$transaction((tx) => applyOperatorResult(tx, id, OK, 'test'));
  return id;
}

async function paidCashout(merchantId: string, country: string, amount: number) {
  const order = `payout-${randomUUID()}`;
  const created = await createCashout(db, {
    merchantId,
    merchantOrderId: order,
    amount,
    currency: CURRENCY[country]!,
    countryCode: country,
    msisdn: MSISDN[country]!,
    reason: 'supplier',
    notifyUrl: null,
    requestFingerprint: order,
    approval: 'none',
  });
  if (created.kind !== 'created') throw new Error('cash-out not created');
  const id = created.transaction.id;
  await db.$transaction((tx) => transition(tx, { transactionId: id, to: 'INITIATED', cause: 'test' }));
  await db.$transaction((tx) =>
    transition(tx, { transactionId: id, to: 'SUCCESS', cause: 'test', patch: { providerState: 'OK' } }),
  );
}

async function refund(merchantId: string, transactionId: string, amount: number) {
  const r = await createRefund(db, {
    merchantId,
    transactionId,
    amount,
    reason: null,
    idempotencyKey: null,
    requestFingerprint: randomUUID(),
  });
  return r.refund.id;
}

const paid = (refundId: string) =>
  db.$transaction((tx) => completeRefund(tx, refundId, { status: 'SUCCESS', providerRefundId: 'RF' }));
const failed = (refundId: string) =>
  db.$transaction((tx) => completeRefund(tx, refundId, { status: 'FAILED', failureReason: 'REFUND_REJECTED' }));

const NOV = statementMonth('2026-11')!;
const OCT = statementMonth('2026-10')!;
const DEC = statementMonth('2026-12')!;
const byCountry = (rows: StatementRow[]) => Object.fromEntries(rows.map((r) => [r.countryCode, r]));

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.url, poolSize: 3 });
  for (const s of SEED_SUBSIDIARIES) await upsertSubsidiary(db, s);
  merchant = (await createMerchant(db, { name: 'Statement shop', webhookUrl: null })).id;
  other = (await createMerchant(db, { name: 'Other shop', webhookUrl: null })).id;

  // October: 13 000 XOF and 7 000 XAF collected, the last franc a millisecond before November.
  const first = await at('2026-10-28T10:00:00Z', () => cashin(merchant, 'CI', 10_000));
  await at('2026-10-28T11:00:00Z', () => cashin(merchant, 'CM', 7_000));
  await at('2026-10-31T23:59:59.999Z', () => cashin(merchant, 'CI', 3_000));
  // November in CI: 5 000 collected (at its first instant), a refund of October's payment reserved then paid
  // (2 000), another reserved then refused (1 000: nothing leaves), a cash-out paid (4 000), a cash-in still
  // pending (not collected).
  await at('2026-11-01T00:00:00Z', () => cashin(merchant, 'CI', 5_000));
  const r1 = await at('2026-11-05T09:00:00Z', () => refund(merchant, first, 2_000));
  await at('2026-11-06T09:00:00Z', () => paid(r1));
  const r2 = await at('2026-11-07T09:00:00Z', () => refund(merchant, first, 1_000));
  await at('2026-11-08T09:00:00Z', () => failed(r2));
  await at('2026-11-10T09:00:00Z', () => paidCashout(merchant, 'CI', 4_000));
  await at('2026-11-20T09:00:00Z', () => cashin(merchant, 'CI', 9_999, 'PENDING'));
  // November in CM: 2 000 collected, a cash-out of 1 000 paid, a refund of 500 reserved on the 30th and paid
  // on 1 December: it leaves in December.
  const cm = await at('2026-11-15T09:00:00Z', () => cashin(merchant, 'CM', 2_000));
  await at('2026-11-16T09:00:00Z', () => paidCashout(merchant, 'CM', 1_000));
  const r3 = await at('2026-11-30T23:00:00Z', () => refund(merchant, cm, 500));
  await at('2026-12-01T08:00:00Z', () => paid(r3));
  // Another merchant's money in the same countries and months.
  await at('2026-11-02T09:00:00Z', () => cashin(other, 'CI', 77_000));
});
afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

describe('monthlyStatement', () => {
  it('parses a month as its UTC bounds, and refuses anything else', () => {
    expect(NOV).toEqual({ start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') });
    expect(statementMonth('2026-12')!.end).toEqual(new Date('2027-01-01T00:00:00Z'));
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', '', 'nov']) {
      expect(statementMonth(bad)).toBeNull();
    }
  });

  it('gives each subsidiary its opening, collected, refunded, paid out and closing, the month boundary to the millisecond', async () => {
    const nov = byCountry(await monthlyStatement(db, merchant, NOV));
    expect(nov.CI).toMatchObject({
      currency: 'XOF',
      opening: 13_000n,
      collected: 5_000n,
      refunded: 2_000n,
      paidOut: 4_000n,
      other: 0n,
      closing: 12_000n,
    });
    expect(nov.CM).toMatchObject({
      currency: 'XAF',
      opening: 7_000n,
      collected: 2_000n,
      refunded: 0n,
      paidOut: 1_000n,
      other: 0n,
      closing: 8_000n,
    });
    // An active subsidiary with no activity: all zeros.
    expect(nov.SN).toMatchObject({ opening: 0n, collected: 0n, refunded: 0n, paidOut: 0n, closing: 0n });

    const dec = byCountry(await monthlyStatement(db, merchant, DEC));
    expect(dec.CM).toMatchObject({ opening: 8_000n, refunded: 500n, closing: 7_500n });
    const oct = byCountry(await monthlyStatement(db, merchant, OCT));
    expect(oct.CI).toMatchObject({ opening: 0n, collected: 13_000n, closing: 13_000n });
  });

  it('opening + collected − refunded − paid out = closing, and each closing is the next opening', async () => {
    const months = [OCT, NOV, DEC];
    const statements = await Promise.all(months.map((m) => monthlyStatement(db, merchant, m)));
    for (const [i, rows] of statements.entries()) {
      for (const r of rows) {
        expect(r.other).toBe(0n);
        expect(r.opening + r.collected - r.refunded - r.paidOut).toBe(r.closing);
        if (i > 0) expect(r.opening).toBe(byCountry(statements[i - 1]!)[r.countryCode]!.closing);
      }
    }
  });

  it('agrees with what the ledger verification reads: account balances equal to their journal entries', async () => {
    expect((await verifyLedger(db)).problems).toEqual([]);
    // The verification's own reading: the accounts' balances, and their journal entries summed up to an instant.
    const read = (until: Date) => db.$queryRaw<{ country_code: string; balance: bigint; from_journal: bigint }[]>`
      SELECT a.country_code, sum(a.balance)::bigint AS balance,
             (SELECT coalesce(sum(e.amount), 0) FROM journal_entries e JOIN ledger_accounts b ON b.id = e.account_id
               WHERE b.merchant_id = ${merchant}::uuid AND b.country_code = a.country_code
                 AND b.kind = ANY(${STATEMENT_ACCOUNT_KINDS}::text[]) AND e.created_at < ${until})::bigint AS from_journal
        FROM ledger_accounts a
       WHERE a.merchant_id = ${merchant}::uuid AND a.kind = ANY(${STATEMENT_ACCOUNT_KINDS}::text[])
       GROUP BY a.country_code`;
    const nov = byCountry(await monthlyStatement(db, merchant, NOV));
    for (const r of await read(NOV.start)) expect(nov[r.country_code]!.opening).toBe(r.from_journal);
    for (const r of await read(NOV.end)) expect(nov[r.country_code]!.closing).toBe(r.from_journal);
    // The month under way closes on the balances as they are now.
    const dec = byCountry(await monthlyStatement(db, merchant, DEC));
    for (const r of await read(new Date('2100-01-01T00:00:00Z'))) {
      expect(dec[r.country_code]!.closing).toBe(r.balance);
      expect(r.balance).toBe(r.from_journal);
    }
  });

  it("shows nothing of another merchant's money", async () => {
    const rows = byCountry(await monthlyStatement(db, other, NOV));
    expect(rows.CI).toMatchObject({ opening: 0n, collected: 77_000n, closing: 77_000n });
    expect(rows.CM).toMatchObject({ opening: 0n, collected: 0n, closing: 0n });
  });
});
