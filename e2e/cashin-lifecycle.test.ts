import { samplesOf, waitFor } from '@mm/testing';
import { signatureMatches } from '@mm/domain';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

let sys: System;
let seq = 0;
const order = () => `order-${Date.now()}-${++seq}`;

beforeAll(async () => {
  sys = await startSystem({ confirmationTimeoutS: 0.6, lateConfirmDelayMs: 1500 });
});
afterAll(async () => {
  await sys.stop();
});

async function cashin(suffix: string, extra: Record<string, unknown> = {}) {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: order(),
    amount: 5000,
    customer_msisdn: CI_NUMBER(suffix),
    ...extra,
  });
  expect(res.status).toBe(202);
  return res.body.data as Record<string, unknown> & { transaction_id: string };
}

async function statusOf(id: string, until: (s: string) => boolean) {
  return waitFor(
    async () => {
      const r = await sys.api('GET', `/api/v1/payments/${id}`);
      return until(r.body.data.status) ? r.body.data : undefined;
    },
    { what: `transaction ${id}`, timeoutMs: 15_000 },
  );
}

const webhooksFor = (id: string) => sys.receiver.received.filter((w) => w.body.transaction_id === id);

describe('cash-in lifecycle against the operator simulator', () => {
  it('answers 202 PENDING with exactly the interface fields once the operator acknowledges the push', async () => {
    const data = await cashin('01', { motif: 'Commande 42', metadata: { cart: 'A1' } });
    // The interface's fields, plus the additive operator and customer_action.
    expect(Object.keys(data).sort()).toEqual([
      'amount',
      'country_code',
      'created_at',
      'currency',
      'customer_action',
      'failure_code',
      'failure_reason',
      'merchant_order_id',
      'msisdn',
      'operator',
      'payment_method',
      'payment_url',
      'provider_reference',
      'provider_session_id',
      'provider_state',
      'provider_tx_id',
      'provider_txn_status',
      'refunded_amount',
      'status',
      'transaction_id',
      'type',
      'updated_at',
    ]);
    expect(data).toMatchObject({
      type: 'CASHIN',
      status: 'PENDING',
      amount: 5000,
      currency: 'XOF',
      country_code: 'CI',
      msisdn: '+22507******01',
      payment_method: 'USSD_PUSH',
      provider_state: 'PENDING',
      provider_tx_id: null,
      provider_session_id: null,
      payment_url: `http://pay.example.test/pay/${data.transaction_id}`,
      // A subsidiary without operator accounts pays through the simulator, whose push is acknowledged without any action to take.
      operator: 'SIMULATOR',
      customer_action: { type: 'NONE' },
    });
  });

  it('moves to SUCCESS on the operator OK/200, credits the balance and sends one signed SUCCESS webhook', async () => {
    // Sénégal: no other test of this suite moves money there.
    const sn = async () =>
      (await sys.api('GET', '/api/v1/balances')).body.data.find(
        (b: { country_code: string }) => b.country_code === 'SN',
      );
    const before = await sn();
    const res = await sys.api('POST', '/api/v1/payments/cashin', {
      merchant_order_id: order(),
      amount: 5000,
      customer_msisdn: '+221771234501',
    });
    expect(res.status).toBe(202);
    const data = res.body.data;
    expect((await sn()).pending_balance - before.pending_balance).toBe(5000);
    const done = await statusOf(data.transaction_id, (s) => s === 'SUCCESS');
    expect(done).toMatchObject({
      provider_state: 'OK',
      provider_txn_status: '200',
      failure_code: null,
      operator: 'SIMULATOR',
      customer_action: { type: 'NONE' },
    });
    expect(done.provider_tx_id).toEqual(expect.any(String));
    expect(done.completed_at).toEqual(expect.any(String));
    const [hook] = await waitFor(
      () => (webhooksFor(data.transaction_id).length ? webhooksFor(data.transaction_id) : undefined),
      { what: 'webhook' },
    );
    expect(hook!.body).toMatchObject({
      event: 'transaction.status_changed',
      status: 'SUCCESS',
      amount: 5000,
      currency: 'XOF',
      country_code: 'SN',
      type: 'CASHIN',
      operator: 'SIMULATOR',
    });
    expect(hook!.headers['user-agent']).toBe('Service-Webhook/1.0');
    expect(
      signatureMatches(
        sys.merchant.apiSecret,
        hook!.headers['x-service-timestamp'] as string,
        hook!.rawBody,
        hook!.headers['x-service-signature'] as string,
      ),
    ).toBe(true);
    const after = await sn();
    expect(after.available_balance - before.available_balance).toBe(5000);
    expect(after.pending_balance).toBe(before.pending_balance);
  });

  it.each([
    ['02', '54321', '60019', 'INSUFFICIENT_BALANCE'],
    ['03', '54321', '00017', 'INVALID_SECRET_CODE'],
    ['04', '54321', '100004', 'THRESHOLD_REACHED'],
    ['05', null, null, 'CUSTOMER_DID_NOT_VALIDATE'],
  ])(
    'number ending %s fails with txn status %s, failure_reason %s, failure_code %s and a FAILED webhook',
    async (suffix, txn, reason, code) => {
      const data = await cashin(suffix);
      const done = await statusOf(data.transaction_id, (s) => s === 'FAILED');
      expect(done).toMatchObject({
        provider_state: 'canceled',
        provider_txn_status: txn,
        failure_reason: reason,
        failure_code: code,
      });
      const hooks = await waitFor(
        () => (webhooksFor(data.transaction_id).length ? webhooksFor(data.transaction_id) : undefined),
        { what: 'webhook' },
      );
      expect(hooks[0]!.body).toMatchObject({ status: 'FAILED', failure_code: code, failure_reason: reason });
    },
  );

  it('fails with OPERATOR_REJECTED when the operator rejects the push (KO)', async () => {
    const data = await cashin('07');
    const done = await statusOf(data.transaction_id, (s) => s === 'FAILED');
    expect(done).toMatchObject({ provider_state: 'KO', failure_code: 'OPERATOR_REJECTED' });
  });

  it('expires a push the customer never confirms, after asking the operator once more', async () => {
    const data = await cashin('06');
    const done = await statusOf(data.transaction_id, (s) => s === 'EXPIRED');
    expect(done.completed_at).toEqual(expect.any(String));
    const events = await sys.db.transactionEvent.findMany({
      where: { transactionId: data.transaction_id },
      orderBy: { id: 'asc' },
    });
    expect(events.map((e) => `${e.fromStatus}->${e.toStatus}:${e.cause}`)).toEqual([
      'null->CREATED:cashin-accepted',
      'CREATED->INITIATED:operator-request',
      'INITIATED->PENDING:operator-ack',
      'PENDING->EXPIRED:expiry',
    ]);
    await waitFor(() => webhooksFor(data.transaction_id).some((w) => w.body.status === 'EXPIRED'), {
      what: 'EXPIRED webhook',
    });
  });

  it('turns a late confirmation into EXPIRED then SUCCESS, credits the balance and sends both webhooks in order', async () => {
    const data = await cashin('09');
    await statusOf(data.transaction_id, (s) => s === 'EXPIRED');
    await statusOf(data.transaction_id, (s) => s === 'SUCCESS');
    const hooks = await waitFor(
      () => (webhooksFor(data.transaction_id).length >= 2 ? webhooksFor(data.transaction_id) : undefined),
      { what: 'two webhooks' },
    );
    expect(hooks.map((h) => h.body.status)).toEqual(['EXPIRED', 'SUCCESS']);
    const entries = await sys.db.journalEntry.findMany({ where: { transactionId: data.transaction_id } });
    expect(new Set(entries.map((e) => e.posting))).toEqual(
      new Set(['CASHIN_PENDING', 'CASHIN_RELEASED', 'CASHIN_LATE_CAPTURED']),
    );
  });

  it('ignores a duplicate operator callback after the terminal state: one transition, one webhook event', async () => {
    const { Queue } = await import('bullmq');
    const { bullPrefix, createRedisConnection, operatorResults } = await import('@mm/queues');
    const data = await cashin('01');
    await statusOf(data.transaction_id, (s) => s === 'SUCCESS');
    const connection = createRedisConnection(sys.redis.url);
    const queue = new Queue(operatorResults.name, { connection, prefix: bullPrefix(sys.redis.prefix) });
    const idle = async () => {
      const c = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
      return Object.values(c).every((n) => n === 0);
    };
    // Callbacks the bridge took so far, queued or dropped as the same signed delivery again.
    const callbacksTaken = async () => {
      const text = await (await fetch(`${sys.internalUrls.bridge}/metrics`)).text();
      return samplesOf(text, 'mm_operator_callbacks_total')
        .filter((m) => m.labels.outcome !== 'invalid')
        .reduce((n, m) => n + m.value, 0);
    };
    try {
      await waitFor(idle, { what: 'operator-results idle' });
      const before = await callbacksTaken();
      const res = await sys.sandbox(`/sandbox/payments/${data.provider_reference}/resend-callback`, { method: 'POST' });
      expect(res.status).toBeLessThan(300);
      // Taken by the bridge (queued, or dropped when signed in the same second as the first), then applied or ignored.
      await waitFor(async () => (await callbacksTaken()) > before, { what: 'the resent callback received' });
      await waitFor(idle, { what: 'the resent callback processed' });
    } finally {
      await queue.close();
      connection.disconnect();
    }
    expect(await sys.db.webhookEvent.count({ where: { transactionId: data.transaction_id } })).toBe(1);
    expect(
      await sys.db.transactionEvent.count({ where: { transactionId: data.transaction_id, toStatus: 'SUCCESS' } }),
    ).toBe(1);
  });

  it('serves the payment_url page with the live status', async () => {
    const data = await cashin('01', { return_url: 'https://shop.example/thanks' });
    const page = await fetch(`${sys.gatewayUrl}/pay/${data.transaction_id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-status="PENDING"');
    await statusOf(data.transaction_id, (s) => s === 'SUCCESS');
    const html = await (await fetch(`${sys.gatewayUrl}/pay/${data.transaction_id}`)).text();
    expect(html).toContain('data-status="SUCCESS"');
    expect(html).toContain('href="https://shop.example/thanks?transaction_id=');
  });
});
