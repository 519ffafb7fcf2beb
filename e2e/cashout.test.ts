import { approveCashout, rejectCashout } from '@mm/db/payments';
import { verifyLedger } from '@mm/db/ledger';
import { waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import { expectError, newOrderId, unixTime, withoutWrites } from './support/contract.js';

let sys: System;
beforeAll(async () => {
  // Daily totals out of the way: this suite is about one cash-out at a time (e2e/cashout-splitting.test.ts has them).
  sys = await startSystem({
    gatewayEnv: {
      DISBURSEMENT_ENABLED: 'true',
      CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: '1000000000',
      CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: '1000000000',
    },
  });
  // 10 000 000 XOF available in CI, from two captured cash-ins.
  for (let i = 0; i < 2; i++) {
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: newOrderId('fund'),
      amount: 5_000_000,
      customer_msisdn: CI_NUMBER('01'),
    });
    expect(res.status).toBe(202);
    const id = res.body.data.transaction_id as string;
    await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
      what: 'funding cash-in',
    });
  }
});
afterAll(async () => {
  await sys.stop();
});

const CASHOUT = '/api/v1/payments/cashout';
const BENEFICIARY = '+2250707123401';
// The simulator's failing beneficiary: numbers ending 11 (its scenario table).
const BENEFICIARY_NOT_FOUND = '+2250707123411';
const cashout = (extra: Record<string, unknown> = {}) => ({
  merchant_order_id: newOrderId('co'),
  amount: 250_000,
  beneficiary_msisdn: BENEFICIARY,
  reason: 'salaire',
  ...extra,
});

type Balance = { country_code: string; available_balance: number; pending_balance: number };
const available = async () =>
  ((await sys.api('GET', '/api/v1/balances')).body.data as Balance[]).find((b) => b.country_code === 'CI')!
    .available_balance;
const statusOf = async (id: string) =>
  (await sys.api('GET', `/api/v1/payments/${id}`)).body.data as Record<string, unknown>;
const until = (id: string, status: string) =>
  waitFor(
    async () => {
      const t = await statusOf(id);
      return t.status === status ? t : undefined;
    },
    { what: `${id} ${status}` },
  );
const hooksOf = (id: string) => sys.receiver.received.filter((w) => w.body.transaction_id === id);
type Disbursement = { partner_reference: string; disbursement_count: number };
async function disbursements(): Promise<Disbursement[]> {
  const res = await sys.sandbox(`/sandbox/disbursements`);
  return ((await res.json()) as { disbursements: Disbursement[] }).disbursements;
}
const paidCount = async (reference: string) =>
  (await disbursements())
    .filter((d) => d.partner_reference === reference)
    .reduce((s, d) => s + d.disbursement_count, 0);

describe('cash-out with disbursement configured (decisions 7)', () => {
  it('below the threshold: 202 CASHOUT, paid by the operator once, SUCCESS webhook, balance debited', async () => {
    const before = await available();
    const res = await sys.api('POST', CASHOUT, cashout());
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      type: 'CASHOUT',
      amount: 250_000,
      currency: 'XOF',
      country_code: 'CI',
      reason: 'salaire',
      payment_method: 'WALLET_TRANSFER',
      operator: 'SIMULATOR',
    });
    // Additive fields: operator; a transfer asks nothing of the beneficiary, so no customer_action in this answer.
    expect(Object.keys(res.body.data).sort()).toEqual([
      'amount',
      'beneficiary_msisdn',
      'country_code',
      'created_at',
      'currency',
      'failure_code',
      'failure_reason',
      'merchant_order_id',
      'operator',
      'payment_method',
      'provider_reference',
      'provider_tx_id',
      'reason',
      'status',
      'transaction_id',
      'type',
      'updated_at',
    ]);
    expect(['CREATED', 'INITIATED', 'SUCCESS']).toContain(res.body.data.status);
    expect(res.body.data.beneficiary_msisdn).not.toContain('123401');
    const id = res.body.data.transaction_id as string;
    const done = await until(id, 'SUCCESS');
    expect(done.provider_tx_id).toEqual(expect.any(String));
    // Read back, a cash-out has the status response's fields: customer_action is there, null.
    expect(done).toMatchObject({ operator: 'SIMULATOR', customer_action: null });
    await waitFor(() => hooksOf(id).length === 1, { what: 'SUCCESS webhook' });
    expect(hooksOf(id)[0]!.body).toMatchObject({
      event: 'transaction.status_changed',
      type: 'CASHOUT',
      status: 'SUCCESS',
      amount: 250_000,
      operator: 'SIMULATOR',
    });
    expect(await paidCount(res.body.data.provider_reference as string)).toBe(1);
    expect(await available()).toBe(before - 250_000);
  });

  it('a paid cash-out cannot be refunded: 409 INVALID_STATE, nothing reserved, no refund written', async () => {
    const res = await sys.api('POST', CASHOUT, cashout());
    const id = res.body.data.transaction_id as string;
    await until(id, 'SUCCESS');
    const before = await available();
    const refused = await withoutWrites(sys, () =>
      sys.api('POST', '/api/v1/refunds', { transaction_id: id, amount: 1000 }),
    );
    expect(expectError(refused, 409, 'INVALID_STATE').message).toMatch(/cash-out/);
    expect(await sys.db.refund.count({ where: { transactionId: id } })).toBe(0);
    expect(await available()).toBe(before);
  });

  it('a repeated cash-out is a replay (200, same transaction, paid once); other parameters are a conflict', async () => {
    const body = cashout({ amount: 1000 });
    const t0 = Number(unixTime());
    const first = await sys.api('POST', CASHOUT, body, { timestamp: String(t0) });
    expect(first.status).toBe(202);
    await until(first.body.data.transaction_id as string, 'SUCCESS');
    const again = await withoutWrites(sys, () => sys.api('POST', CASHOUT, body, { timestamp: String(t0 - 1) }));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.transaction_id).toBe(first.body.data.transaction_id);
    expectError(
      await withoutWrites(sys, () => sys.api('POST', CASHOUT, { ...body, amount: 1001 })),
      409,
      'DUPLICATE_ORDER_ID',
    );
    expect(await paidCount(first.body.data.provider_reference as string)).toBe(1);
  });

  it('at the threshold: AWAITING_APPROVAL with the amount reserved and nothing sent; approved, it is paid', async () => {
    const before = await available();
    const res = await sys.api('POST', CASHOUT, cashout({ amount: 1_000_000 }));
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe('AWAITING_APPROVAL');
    const id = res.body.data.transaction_id as string;
    expect(await available()).toBe(before - 1_000_000);
    expect(await paidCount(res.body.data.provider_reference as string)).toBe(0);
    expect(hooksOf(id)).toEqual([]);
    // The approval writes the operator request in the database; the bridge's relay publishes it.
    await sys.db.$transaction((tx) => approveCashout(tx, { transactionId: id, decidedBy: 'approver@test' }));
    await until(id, 'SUCCESS');
    expect(await paidCount(res.body.data.provider_reference as string)).toBe(1);
    expect(await available()).toBe(before - 1_000_000);
  });

  it('rejected by an approver: FAILED with the reason, reservation released, FAILED webhook, never paid', async () => {
    const before = await available();
    const res = await sys.api('POST', CASHOUT, cashout({ amount: 2_000_000 }));
    const id = res.body.data.transaction_id as string;
    expect(await available()).toBe(before - 2_000_000);
    await sys.db.$transaction((tx) =>
      rejectCashout(tx, {
        transactionId: id,
        decidedBy: 'approver@test',
        reason: 'beneficiary unknown to the merchant',
      }),
    );
    expect(await statusOf(id)).toMatchObject({
      status: 'FAILED',
      failure_code: 'REJECTED_BY_APPROVER',
      failure_reason: 'beneficiary unknown to the merchant',
    });
    expect(await available()).toBe(before);
    await waitFor(() => hooksOf(id).length === 1, { what: 'FAILED webhook' });
    expect(hooksOf(id)[0]!.body).toMatchObject({
      type: 'CASHOUT',
      status: 'FAILED',
      failure_code: 'REJECTED_BY_APPROVER',
    });
    expect(await paidCount(res.body.data.provider_reference as string)).toBe(0);
  });

  it('above the available balance: 409 INSUFFICIENT_BALANCE and nothing written', async () => {
    // Leave exactly 4 000 000 available: a large cash-out waiting for approval reserves the rest.
    const hold = await sys.api('POST', CASHOUT, cashout({ amount: (await available()) - 4_000_000 }));
    expect(hold.status).toBe(202);
    expect(await available()).toBe(4_000_000);
    expectError(
      await withoutWrites(sys, () => sys.api('POST', CASHOUT, cashout({ amount: 4_000_001 }))),
      409,
      'INSUFFICIENT_BALANCE',
    );
    expect(await available()).toBe(4_000_000);
    await sys.db.$transaction((tx) =>
      rejectCashout(tx, {
        transactionId: hold.body.data.transaction_id as string,
        decidedBy: 'approver@test',
        reason: 'test hold',
      }),
    );
  });

  it('the beneficiary wallet refuses: FAILED OPERATOR_REJECTED with the operator reason, reservation released', async () => {
    const before = await available();
    const res = await sys.api('POST', CASHOUT, cashout({ amount: 5000, beneficiary_msisdn: BENEFICIARY_NOT_FOUND }));
    expect(res.status).toBe(202);
    const id = res.body.data.transaction_id as string;
    const failed = await until(id, 'FAILED');
    expect(failed).toMatchObject({ failure_code: 'OPERATOR_REJECTED', failure_reason: 'BENEFICIARY_NOT_FOUND' });
    expect(await available()).toBe(before);
    await waitFor(() => hooksOf(id).length === 1, { what: 'FAILED webhook' });
  });

  it('the operator too slow: the cash-out stays INITIATED (never failed on a guess), the retry finds it paid, once', async () => {
    // Every call waits 1.5 s at the operator, past our 1 s timeout, and is still processed there.
    await sys.sandbox(`/sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency_ms: 1500 }),
    });
    let res;
    try {
      res = await sys.api('POST', CASHOUT, cashout({ amount: 3000 }));
      expect(res.status).toBe(202);
      const reference = res.body.data.provider_reference as string;
      // Paid at the operator although our call gave up: we must not have decided anything yet.
      await waitFor(async () => (await paidCount(reference)) === 1, { what: 'the operator paid' });
      expect((await statusOf(res.body.data.transaction_id as string)).status).toBe('INITIATED');
    } finally {
      await sys.sandbox(`/sandbox/faults`, { method: 'DELETE' });
    }
    const id = res.body.data.transaction_id as string;
    await until(id, 'SUCCESS');
    expect(await paidCount(res.body.data.provider_reference as string)).toBe(1);
    const events = await sys.db.transactionEvent.findMany({ where: { transactionId: id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => e.toStatus)).toEqual(['CREATED', 'INITIATED', 'SUCCESS']);
  });

  it('keeps the ledger balanced, cash-out reservations included', async () => {
    await waitFor(
      async () =>
        (await sys.db.transaction.count({ where: { type: 'CASHOUT', status: { in: ['CREATED', 'INITIATED'] } } })) ===
        0,
      { what: 'no cash-out in flight' },
    );
    expect((await verifyLedger(sys.db)).problems).toEqual([]);
  });
});
