import { waitFor } from '@mm/testing';
import { post } from '@mm/db/ledger';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

let sys: System;
let seq = 0;
let lastTs = 0;
beforeAll(async () => {
  sys = await startSystem();
});
afterAll(async () => {
  await sys.stop();
});

// Two signed requests with the same body in the same second would be a replay: give each its own
// second, counting down from now (well inside the 300 s tolerance).
function freshTimestamp(): string {
  const now = Math.floor(Date.now() / 1000);
  lastTs = lastTs === 0 ? now : Math.max(lastTs - 1, now - 200);
  return String(lastTs);
}

async function capturedCashin(suffix = '01', amount = 5000, msisdn = CI_NUMBER(suffix)) {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: `rf-${Date.now()}-${++seq}`,
    amount,
    customer_msisdn: msisdn,
  });
  expect(res.status).toBe(202);
  const id = res.body.data.transaction_id as string;
  await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${id}`)).body.data.status === 'SUCCESS', {
    what: 'captured cash-in',
  });
  return id;
}

const refund = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  sys.api('POST', '/api/v1/refunds', body, { timestamp: freshTimestamp(), extraHeaders: headers });

async function refundStatus(id: string, until: string) {
  return waitFor(
    async () => {
      const r = await sys.api('GET', `/api/v1/refunds/${id}`);
      return r.body.data.status === until ? r.body.data : undefined;
    },
    { what: `refund ${id} ${until}` },
  );
}

const balance = async (country: string) =>
  (await sys.api('GET', '/api/v1/balances')).body.data.find(
    (b: { country_code: string }) => b.country_code === country,
  ) as { available_balance: number; pending_balance: number };
const hooks = (txId: string) =>
  sys.receiver.received.filter((w) => w.body.transaction_id === txId).map((w) => `${w.body.event}:${w.body.status}`);

describe('refunds', () => {
  it('refunds a captured cash-in in full: 202 PENDING record, then SUCCESS, REVERSED, webhooks and the balance back', async () => {
    const before = await balance('CI');
    const tx = await capturedCashin();
    const res = await refund({ transaction_id: tx, reason: 'customer returned the goods' });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body.data).sort()).toEqual([
      'amount',
      'completed_at',
      'created_at',
      'currency',
      'failure_reason',
      'merchant_order_id',
      'provider_reference',
      'reason',
      'refund_id',
      'status',
      'transaction_id',
      'updated_at',
    ]);
    expect(res.body.data).toMatchObject({
      transaction_id: tx,
      amount: 5000,
      currency: 'XOF',
      status: 'PENDING',
      reason: 'customer returned the goods',
      completed_at: null,
    });
    const done = await refundStatus(res.body.data.refund_id, 'SUCCESS');
    expect(done.completed_at).toEqual(expect.any(String));
    const t = (await sys.api('GET', `/api/v1/payments/${tx}`)).body.data;
    expect(t).toMatchObject({ status: 'REVERSED', refunded_amount: 5000 });
    await waitFor(() => hooks(tx).length === 3, { what: 'three webhooks' });
    expect(hooks(tx)).toEqual([
      'transaction.status_changed:SUCCESS',
      'refund.status_changed:SUCCESS',
      'transaction.status_changed:REVERSED',
    ]);
    expect(await balance('CI')).toMatchObject({ available_balance: before.available_balance });
  });

  it('allows partial refunds up to the amount; the cash-in stays SUCCESS until they cover it all', async () => {
    const tx = await capturedCashin();
    const first = await refund({ transaction_id: tx, amount: 2000 });
    await refundStatus(first.body.data.refund_id, 'SUCCESS');
    expect((await sys.api('GET', `/api/v1/payments/${tx}`)).body.data).toMatchObject({
      status: 'SUCCESS',
      refunded_amount: 2000,
    });
    const tooMuch = await refund({ transaction_id: tx, amount: 3001 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.code).toBe('REFUND_EXCEEDS_AMOUNT');
    const rest = await refund({ transaction_id: tx, amount: 3000 });
    await refundStatus(rest.body.data.refund_id, 'SUCCESS');
    await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${tx}`)).body.data.status === 'REVERSED', {
      what: 'REVERSED',
    });
  });

  it('accepts exactly one of two concurrent partial refunds that together would exceed the amount', async () => {
    const tx = await capturedCashin();
    const [a, b] = await Promise.all([
      refund({ transaction_id: tx, amount: 3000 }),
      refund({ transaction_id: tx, amount: 3000, reason: 'b' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 422]);
    expect([a, b].find((r) => r.status === 422)!.body.error.code).toBe('REFUND_EXCEEDS_AMOUNT');
    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(1);
  });

  it('accepts exactly as many of 20 concurrent partial refunds as the amount allows', async () => {
    const tx = await capturedCashin();
    // As a merchant sends them: a 503 (the cash-in's row held by the others past the gateway's lock
    // limit, on a loaded machine) is sent again after its Retry-After, under the same Idempotency-Key.
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        for (;;) {
          const a = await refund(
            { transaction_id: tx, amount: 300, reason: `part ${i}` },
            { 'Idempotency-Key': `${tx}-part-${i}` },
          );
          if (a.status !== 503) return a;
          await new Promise((r) => setTimeout(r, Number(a.headers.get('retry-after')) * 1000));
        }
      }),
    );
    // 16 x 300 = 4 800 fits in 5 000; a 17th would not.
    expect(answers.filter((a) => a.status === 202)).toHaveLength(16);
    expect(answers.filter((a) => a.status === 422).every((a) => a.body.error.code === 'REFUND_EXCEEDS_AMOUNT')).toBe(
      true,
    );
    expect(answers.filter((a) => a.status === 422)).toHaveLength(4);
    const row = await sys.db.transaction.findUniqueOrThrow({ where: { id: tx } });
    expect(row.refundReservedAmount).toBe(4800n);
  });

  it('refuses to refund a FAILED cash-in (409 INVALID_STATE) and writes nothing', async () => {
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: `rf-failed-${++seq}`,
      amount: 5000,
      customer_msisdn: CI_NUMBER('02'),
    });
    const tx = res.body.data.transaction_id as string;
    await waitFor(async () => (await sys.api('GET', `/api/v1/payments/${tx}`)).body.data.status === 'FAILED', {
      what: 'FAILED',
    });
    const r = await refund({ transaction_id: tx });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('INVALID_STATE');
    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(0);
  });

  it('records a refund the operator refuses as FAILED, releases the reservation and allows another', async () => {
    const before = await balance('CI');
    const tx = await capturedCashin('10');
    const r = await refund({ transaction_id: tx, amount: 1000 });
    const failed = await refundStatus(r.body.data.refund_id, 'FAILED');
    expect(failed.failure_reason).toBe('REFUND_REJECTED');
    expect((await sys.api('GET', `/api/v1/payments/${tx}`)).body.data).toMatchObject({
      status: 'SUCCESS',
      refunded_amount: 0,
    });
    expect((await balance('CI')).available_balance - before.available_balance).toBe(5000);
    await waitFor(() => hooks(tx).includes('refund.status_changed:FAILED'), { what: 'FAILED refund webhook' });
    expect((await refund({ transaction_id: tx, amount: 5000 })).status).toBe(202);
  });

  it('answers 409 INSUFFICIENT_BALANCE when the available balance cannot cover the refund, and reserves nothing', async () => {
    const tx = await capturedCashin('01', 5000, '+237671234501');
    const avail = (await balance('CM')).available_balance;
    // Money leaves the available balance by another way (what a cash-out will do): a balanced journal.
    await sys.db.$transaction((t) =>
      post(
        t,
        { merchantId: sys.merchant.id, countryCode: 'CM', currency: 'XAF' },
        {
          name: 'TEST_PAYOUT',
          lines: [
            { account: 'MERCHANT_AVAILABLE', amount: -(avail - 1000) },
            { account: 'OPERATOR_RECEIVABLE', amount: avail - 1000 },
          ],
        },
        null,
      ),
    );
    const r = await refund({ transaction_id: tx, amount: 2000 });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(0);
    expect((await sys.db.transaction.findUniqueOrThrow({ where: { id: tx } })).refundReservedAmount).toBe(0n);
    expect((await balance('CM')).available_balance).toBe(1000);
  });

  it('returns the same refund for the same Idempotency-Key and body, and 409 for another body', async () => {
    const tx = await capturedCashin();
    const first = await refund({ transaction_id: tx, amount: 100 }, { 'Idempotency-Key': `key-${seq}` });
    const again = await refund({ transaction_id: tx, amount: 100 }, { 'Idempotency-Key': `key-${seq}` });
    expect(first.status).toBe(202);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.refund_id).toBe(first.body.data.refund_id);
    const other = await refund({ transaction_id: tx, amount: 200 }, { 'Idempotency-Key': `key-${seq}` });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await sys.db.refund.count({ where: { transactionId: tx } })).toBe(1);
  });

  it('validates the request: missing or malformed transaction_id, unknown transaction, bad amount', async () => {
    const missing = await refund({ amount: 100 });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([expect.objectContaining({ field: 'transaction_id' })]);
    expect((await refund({ transaction_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const tx = await capturedCashin();
    const bad = await refund({ transaction_id: tx, amount: 10.5 });
    expect(bad.status).toBe(400);
    expect((await refund({ transaction_id: tx, amount: 5001 })).body.error.code).toBe('REFUND_EXCEEDS_AMOUNT');
    expect((await sys.api('GET', '/api/v1/refunds/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('refunds while the operator is unreachable', () => {
  it('stay PENDING (never FAILED on a guess) and are paid exactly once when the operator answers again', async () => {
    const { Queue } = await import('bullmq');
    const { createRedisConnection, bullPrefix, refundRequests } = await import('@mm/queues');
    const tx = await capturedCashin();
    const { providerReference } = await sys.db.transaction.findUniqueOrThrow({ where: { id: tx } });
    expect(
      (await sys.sandbox(`/sandbox/payments/${providerReference}/hang-refunds`, { method: 'POST' })).status,
    ).toBeLessThan(300);
    const r = await refund({ transaction_id: tx, amount: 1000 });
    const connection = createRedisConnection(sys.redis.url);
    const queue = new Queue(refundRequests.name, { connection, prefix: bullPrefix(sys.redis.prefix) });
    try {
      await waitFor(
        async () => (await queue.getJobs(['delayed', 'wait', 'active', 'failed'])).some((j) => j.attemptsMade >= 1),
        { what: 'a failed refund attempt' },
      );
      expect((await sys.api('GET', `/api/v1/refunds/${r.body.data.refund_id}`)).body.data.status).toBe('PENDING');
      expect(
        (await sys.sandbox(`/sandbox/payments/${providerReference}/hang-refunds`, { method: 'DELETE' })).status,
      ).toBeLessThan(300);
      await refundStatus(r.body.data.refund_id, 'SUCCESS');
      const refunds = (await (await sys.sandbox(`/sandbox/refunds`)).json()) as {
        refunds: { refund_count: number; partner_reference: string }[];
      };
      const ours = refunds.refunds.filter((x) => x.partner_reference === r.body.data.provider_reference);
      expect(ours.map((x) => x.refund_count)).toEqual([1]);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});
