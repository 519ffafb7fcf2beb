import { verifyLedger } from '@mm/db/ledger';
import { waitFor } from '@mm/testing';
import { CI_NUMBER, startSystem, type System } from './support/system.js';
import { expectError, newOrderId, signedHeaders, unixTime } from './support/contract.js';

/**
 * A signed request that changes money (a refund, a cash-out) is taken once, even when Redis, where the
 * replay guard remembers signatures, loses its data while the request is still within its timestamp
 * window: the refund or cash-out keeps its signature's hash under a unique index, and the replay gets
 * the answer the Redis guard gives (401 REQUEST_REPLAYED), with nothing written.
 */
let sys: System;
beforeAll(async () => {
  // Daily totals out of the way: no cash-out of this suite waits for an approver.
  sys = await startSystem({
    gatewayEnv: {
      DISBURSEMENT_ENABLED: 'true',
      CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: '1000000000',
      CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: '1000000000',
    },
  });
});
afterAll(async () => {
  await sys?.stop();
});

const REFUNDS = '/api/v1/refunds';
const CASHOUT = '/api/v1/payments/cashout';

/** One signed request, kept as the exact headers and body bytes a captured one would be. */
function signed(body: Record<string, unknown>, extraHeaders: Record<string, string> = {}, timestamp = unixTime()) {
  const text = JSON.stringify(body);
  const headers = { ...signedHeaders(sys.merchant.apiKey, sys.merchant.apiSecret, text, timestamp), ...extraHeaders };
  return { timestamp, send: (path: string) => sys.api('POST', path, text, { headers: { ...headers } }) };
}

/** A retry's timestamp: another second than the original's, so another signature (still inside the window). */
const earlier = (timestamp: string) => String(Number(timestamp) - 1);

async function capturedCashin(amount: number): Promise<string> {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: newOrderId('rp-in'),
    amount,
    customer_msisdn: CI_NUMBER('01'),
  });
  expect(res.status).toBe(202);
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
    what: 'captured cash-in',
  });
  return id;
}

const refundSettled = (id: string) =>
  waitFor(
    async () => {
      const r = (await sys.api('GET', `/api/v1/refunds/${id}`)).body.data;
      return r.status === 'SUCCESS' ? r : undefined;
    },
    { what: `refund ${id} SUCCESS` },
  );
const transactionSettled = (id: string) =>
  waitFor(
    async () => {
      const t = (await sys.api('GET', `/api/v1/payments/${id}`)).body.data;
      return t.status === 'SUCCESS' ? t : undefined;
    },
    { what: `transaction ${id} SUCCESS` },
  );

/** The merchant's money as the ledger holds it, and the refunds and cash-outs written. */
async function moneyState() {
  const accounts = await sys.db.ledgerAccount.findMany({
    where: { merchantId: sys.merchant.id },
    orderBy: [{ countryCode: 'asc' }, { kind: 'asc' }],
  });
  return {
    balances: accounts.map((a) => `${a.countryCode} ${a.kind} ${a.balance}`),
    journals: await sys.db.journalEntry.count(),
    refunds: await sys.db.refund.count({ where: { merchantId: sys.merchant.id } }),
    cashouts: await sys.db.transaction.count({ where: { merchantId: sys.merchant.id, type: 'CASHOUT' } }),
    outbox: await sys.db.outbox.count(),
  };
}

/**
 * Sends `request` again after Redis lost everything of this suite, and checks the answer is the Redis
 * guard's own (which it gives the same request before the flush) and that nothing moved.
 */
async function replayAfterFlush(request: ReturnType<typeof signed>, path: string) {
  const guarded = expectError(await request.send(path), 401, 'REQUEST_REPLAYED');
  const before = await moneyState();
  await sys.redis.flush();
  const replay = await request.send(path);
  const error = expectError(replay, 401, 'REQUEST_REPLAYED');
  expect(error.message).toBe(guarded.message);
  expect(error.details).toBeUndefined();
  expect(await moneyState()).toEqual(before);
  expect((await verifyLedger(sys.db)).problems).toEqual([]);
}

describe('a refund replayed right after Redis lost its data', () => {
  it('without Idempotency-Key: 401 REQUEST_REPLAYED, one refund, paid once, balances unchanged', async () => {
    const tx = await capturedCashin(5000);
    // Partial: room is left on the cash-in, so a second refund would be accepted if the replay got through.
    const request = signed({ transaction_id: tx, amount: 2000, reason: 'one item returned' });
    const first = await request.send(REFUNDS);
    expect(first.status).toBe(202);
    const paid = await refundSettled(first.body.data.refund_id as string);

    await replayAfterFlush(request, REFUNDS);

    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(1);
    expect((await sys.db.transaction.findUniqueOrThrow({ where: { id: tx } })).refundReservedAmount).toBe(2000n);
    const refunds = (await (await sys.sandbox('/sandbox/refunds')).json()) as {
      refunds: { partner_reference: string; refund_count: number }[];
    };
    expect(
      refunds.refunds.filter((r) => r.partner_reference === paid.provider_reference).map((r) => r.refund_count),
    ).toEqual([1]);
  });

  it("with an Idempotency-Key: 401 REQUEST_REPLAYED, as before the flush; the merchant's retry, signed anew, gets the refund (200)", async () => {
    const tx = await capturedCashin(5000);
    const key = `rp-key-${newOrderId()}`;
    const body = { transaction_id: tx, amount: 1000 };
    const request = signed(body, { 'Idempotency-Key': key });
    const first = await request.send(REFUNDS);
    expect(first.status).toBe(202);
    await refundSettled(first.body.data.refund_id as string);

    await replayAfterFlush(request, REFUNDS);

    const retry = await signed(body, { 'Idempotency-Key': key }, earlier(request.timestamp)).send(REFUNDS);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.refund_id).toBe(first.body.data.refund_id);
    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(1);
  });
});

describe('a cash-out replayed right after Redis lost its data', () => {
  it("401 REQUEST_REPLAYED, one cash-out, paid once, balances unchanged; the retry signed anew is the order's replay (200)", async () => {
    await capturedCashin(1_000_000);
    const body = {
      merchant_order_id: newOrderId('rp-out'),
      amount: 250_000,
      beneficiary_msisdn: '+2250707123401',
      reason: 'salaire',
    };
    const request = signed(body);
    const first = await request.send(CASHOUT);
    expect(first.status).toBe(202);
    const id = first.body.data.transaction_id as string;
    await transactionSettled(id);

    await replayAfterFlush(request, CASHOUT);

    expect(
      await sys.db.transaction.count({
        where: { merchantId: sys.merchant.id, merchantOrderId: body.merchant_order_id },
      }),
    ).toBe(1);
    const disbursements = (await (await sys.sandbox('/sandbox/disbursements')).json()) as {
      disbursements: { partner_reference: string; disbursement_count: number }[];
    };
    expect(
      disbursements.disbursements
        .filter((d) => d.partner_reference === first.body.data.provider_reference)
        .reduce((n, d) => n + d.disbursement_count, 0),
    ).toBe(1);

    const retry = await signed(body, {}, earlier(request.timestamp)).send(CASHOUT);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.transaction_id).toBe(id);
  });
});
