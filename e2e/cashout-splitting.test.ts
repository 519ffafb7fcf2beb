/**
 * Cash-out approval cannot be avoided by splitting (security review, point 4): past a rolling 24 h
 * total per merchant, or per beneficiary, every cash-out waits for an approver, those in flight
 * included, however many arrive at once. Limits scaled down (threshold 10 000, merchant 30 000,
 * beneficiary 10 000: the defaults' ratios) so one cash-in funds a suite. Twenty decisions of one
 * merchant wait for each other under its cash-out lock: the suite gives that wait 10 s instead of the
 * gateway's 1 s, or a loaded CI machine answers the last ones 503 (what a merchant would retry) and the
 * rule under test is never reached.
 */
import { rejectCashout } from '@mm/db/payments';
import { verifyLedger } from '@mm/db/ledger';
import { waitFor } from '@mm/testing';
import { anotherMerchant, newOrderId } from './support/contract.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

let sys: System;
beforeAll(async () => {
  sys = await startSystem({
    gatewayEnv: {
      DISBURSEMENT_ENABLED: 'true',
      CASHOUT_APPROVAL_THRESHOLD: '10000',
      CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: '30000',
      CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: '10000',
      RATE_LIMIT_PER_S: '1000',
      RATE_LIMIT_BURST: '1000',
      DB_LOCK_TIMEOUT_MS: '10000',
      DB_STATEMENT_TIMEOUT_MS: '10000',
    },
  });
});
afterAll(async () => {
  await sys.stop();
});

const JUST_UNDER = 9_999;

/** A merchant of its own (its own 24 h totals) with 500 000 XOF available in CI. */
async function fundedMerchant(name: string) {
  const m = await anotherMerchant(sys, name);
  const res = await m.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: newOrderId('fund'),
    amount: 500_000,
    customer_msisdn: CI_NUMBER('01'),
  });
  expect(res.status).toBe(202);
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await m.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
    what: 'funding cash-in',
  });
  return m;
}

type Merchant = Awaited<ReturnType<typeof fundedMerchant>>;

/** Twenty cash-outs sent at once; their transactions in the order the database accepted them. */
async function twentyAtOnce(m: Merchant, beneficiary: (i: number) => string) {
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      m.api('POST', '/api/v1/payments/cashout', {
        merchant_order_id: newOrderId('split'),
        amount: JUST_UNDER,
        beneficiary_msisdn: beneficiary(i),
      }),
    ),
  );
  // Every one accepted; a refusal shows with its body.
  expect(answers.filter((a) => a.status !== 202).map((a) => [a.status, a.body])).toEqual([]);
  const ids = answers.map((a) => a.body.data.transaction_id as string);
  const accepted = await sys.db.transactionEvent.findMany({
    where: { transactionId: { in: ids }, fromStatus: null },
    orderBy: { id: 'asc' },
  });
  return accepted.map((e) => ({
    id: e.transactionId,
    status: e.toStatus,
    reason: (e.detail as Record<string, string> | null)?.approval_reason ?? null,
  }));
}

const counts = (rows: { reason: string | null }[]) =>
  rows.reduce<Record<string, number>>((c, r) => ({ ...c, [r.reason ?? 'sent']: (c[r.reason ?? 'sent'] ?? 0) + 1 }), {});

describe('twenty cash-outs just under the threshold, sent at once', () => {
  it('to twenty numbers: the first three fit the merchant total and are sent, the other seventeen wait', async () => {
    const m = await fundedMerchant('Splitter A');
    const rows = await twentyAtOnce(m, (i) => `+2250707${String(200000 + i)}`);
    expect(counts(rows)).toEqual({ sent: 3, MERCHANT_DAILY_TOTAL: 17 });
    // In acceptance order: nothing waits before the total is reached, everything after it does.
    expect(rows.map((r) => r.status)).toEqual([...Array(3).fill('CREATED'), ...Array(17).fill('AWAITING_APPROVAL')]);
    // The waiting ones are reserved like any cash-out: nothing has left, nothing is lost.
    const awaiting = await sys.db.transaction.count({ where: { merchantId: m.id, status: 'AWAITING_APPROVAL' } });
    expect(awaiting).toBe(17);
  });

  it('to one number: the first is sent, the next two wait on the beneficiary total, the rest on the merchant total', async () => {
    const m = await fundedMerchant('Splitter B');
    const rows = await twentyAtOnce(m, () => '+2250707300001');
    expect(rows.map((r) => r.reason)).toEqual([
      null,
      'BENEFICIARY_DAILY_TOTAL',
      'BENEFICIARY_DAILY_TOTAL',
      ...Array(17).fill('MERCHANT_DAILY_TOTAL'),
    ]);
  });
});

describe('the rolling window', () => {
  it('a rejected cash-out no longer counts; one older than 24 hours neither', async () => {
    const m = await fundedMerchant('Splitter C');
    const send = (beneficiary: string) =>
      m.api('POST', '/api/v1/payments/cashout', {
        merchant_order_id: newOrderId('win'),
        amount: JUST_UNDER,
        beneficiary_msisdn: beneficiary,
      });
    const first = await send('+2250707400001');
    expect(first.body.data.status).not.toBe('AWAITING_APPROVAL');
    const second = await send('+2250707400001');
    expect(second.body.data.status).toBe('AWAITING_APPROVAL');

    // An approver rejects the waiting one: FAILED, out of the total, so the next one to that number waits only on the first.
    await sys.db.$transaction((tx) =>
      rejectCashout(tx, {
        transactionId: second.body.data.transaction_id,
        decidedBy: 'approver@test',
        reason: 'split',
      }),
    );
    expect((await send('+2250707400001')).body.data.status).toBe('AWAITING_APPROVAL');

    // The first one, 25 hours old, leaves the window: the number may receive again without approval.
    await sys.db
      .$executeRaw`UPDATE transactions SET created_at = now() - interval '25 hours' WHERE merchant_id = ${m.id}::uuid AND type = 'CASHOUT' AND status <> 'AWAITING_APPROVAL'`;
    expect((await send('+2250707400001')).body.data.status).toBe('AWAITING_APPROVAL');
    await sys.db
      .$executeRaw`UPDATE transactions SET created_at = now() - interval '25 hours' WHERE merchant_id = ${m.id}::uuid AND type = 'CASHOUT'`;
    expect((await send('+2250707400001')).body.data.status).not.toBe('AWAITING_APPROVAL');
    expect((await verifyLedger(sys.db)).ok).toBe(true);
  });
});
