import { waitFor } from '@mm/testing';
import { PROXY_NOT_FOUND_PAGE, type RunningOperatorMocks } from '@mm/operator-mocks';
import { newOrderId, onceHeard } from './support/contract.js';
import { withOperatorMocks } from './support/operator-mocks.js';
import { startSystem, type System } from './support/system.js';

let sys: System;
let mocks: RunningOperatorMocks;
beforeAll(async () => {
  sys = await startSystem({
    gatewayEnv: {
      DISBURSEMENT_ENABLED: 'true',
      CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: '1000000000',
      CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: '1000000000',
    },
    // Unsigned callbacks are hints: a lost one is made up for by these polls.
    bridgeEnv: { CASHIN_STATUS_POLL_S: '5,10' },
    confirmationTimeoutS: 60,
  });
  mocks = await withOperatorMocks(sys);
});
afterAll(async () => {
  await mocks.close();
  await sys.stop();
});

let lastTs = 0;
// Refunds of the same body in one second would be replays: each signed request gets its own second.
const freshTimestamp = () => String((lastTs = lastTs === 0 ? Math.floor(Date.now() / 1000) : lastTs - 1));

async function cashin(msisdn: string, extra: Record<string, unknown> = {}) {
  const res = await onceHeard(
    () =>
      sys.api('POST', '/api/v1/payments/cashin', {
        merchant_order_id: newOrderId('op'),
        amount: 5000,
        customer_msisdn: msisdn,
        ...extra,
      }),
    202,
  );
  return res.body.data as { transaction_id: string; operator: string; status: string };
}

async function finalStatus(id: string) {
  return waitFor(
    async () => {
      const data = (await sys.api('GET', `/api/v1/payments/${id}`)).body.data;
      return ['SUCCESS', 'FAILED', 'EXPIRED'].includes(data.status) ? data : undefined;
    },
    { what: `transaction ${id} decided`, timeoutMs: 20_000 },
  );
}

/** Why the transaction was decided: a signed callback applied as it came, or a status answer (after a hint or a poll). */
const decidedBy = async (id: string) =>
  (
    await sys.db.transactionEvent.findFirstOrThrow({
      where: { transactionId: id, toStatus: { in: ['SUCCESS', 'FAILED'] } },
    })
  ).cause;

const webhooksFor = (id: string) =>
  sys.receiver.received.filter((w) => w.body.transaction_id === id && w.body.event === 'transaction.status_changed');

async function redirectUrl(id: string): Promise<string> {
  return waitFor(
    async () => {
      const t = await sys.db.transaction.findUniqueOrThrow({ where: { id } });
      const action = t.customerAction as { type: string; url?: string } | null;
      return t.status === 'PENDING' && action?.type === 'REDIRECT' ? action.url : undefined;
    },
    { what: `the redirect of ${id}` },
  );
}

describe('a cash-in through each real operator, against its contract mock', () => {
  it.each([
    ["MTN MoMo, Côte d'Ivoire (push; unsigned callback = hint + status query)", '+2250512345601', {}, 'MTN'],
    ['MTN MoMo, Cameroon', '+237675551201', {}, 'MTN'],
    ['Orange Money mp, Cameroon (pay token prepared and stored before the push)', '+237691234501', {}, 'ORANGE'],
  ])(
    "%s: routed by its number, SUCCESS with the operator's transaction id, one webhook",
    async (_name, msisdn, extra, operator) => {
      const accepted = await cashin(msisdn, extra);
      expect(accepted.operator).toBe(operator);
      const done = await finalStatus(accepted.transaction_id);
      expect(done).toMatchObject({
        status: 'SUCCESS',
        operator,
        provider_state: 'OK',
        provider_txn_status: '200',
        provider_tx_id: expect.any(String),
      });
      await waitFor(() => webhooksFor(accepted.transaction_id).length === 1, { what: 'the SUCCESS webhook' });
      expect(webhooksFor(accepted.transaction_id)[0]!.body).toMatchObject({ status: 'SUCCESS', operator });
      // Decided on the operator's callback (a hint answered by a status query), before the first poll (5 s).
      expect(await decidedBy(accepted.transaction_id)).toBe('operator-result:status-confirmation');
    },
  );

  it('Orange mp: the pay token the bridge stored is the one the operator paid', async () => {
    const accepted = await cashin('+237691234501');
    await finalStatus(accepted.transaction_id);
    const t = await sys.db.transaction.findUniqueOrThrow({ where: { id: accepted.transaction_id } });
    expect(mocks.controls.orangeMp.payment(t.providerSessionId!)).toMatchObject({ orderId: t.providerReference });
  });

  it("Orange WebPay (redirect): PENDING with the operator's payment URL; the customer pays there; SUCCESS", async () => {
    const accepted = await cashin('+2250712345601');
    expect(accepted.operator).toBe('ORANGE');
    const url = await redirectUrl(accepted.transaction_id);
    const t = await sys.db.transaction.findUniqueOrThrow({ where: { id: accepted.transaction_id } });
    expect(url).toContain(t.providerSessionId!);
    expect((await sys.api('GET', `/api/v1/payments/${accepted.transaction_id}`)).body.data.customer_action).toEqual({
      type: 'REDIRECT',
      url,
    });
    mocks.controls.orangeWebpay.pay(t.providerSessionId!, '+2250712345601');
    expect(await finalStatus(accepted.transaction_id)).toMatchObject({
      status: 'SUCCESS',
      operator: 'ORANGE',
      provider_tx_id: expect.any(String),
    });
  });

  it('Wave (named; redirect, signed webhook applied after its signature holds): SUCCESS', async () => {
    const accepted = await cashin('+2250512345601', { operator: 'WAVE' });
    expect(accepted.operator).toBe('WAVE');
    await redirectUrl(accepted.transaction_id);
    expect(await finalStatus(accepted.transaction_id)).toMatchObject({
      status: 'SUCCESS',
      operator: 'WAVE',
      provider_tx_id: expect.any(String),
    });
    // Applied from Wave's signed webhook as it came, not from a status query.
    expect(await decidedBy(accepted.transaction_id)).toBe('operator-result:callback');
  });
});

describe("failures in each operator's vocabulary, normalised", () => {
  it.each([
    ['MTN', '+2250512345602', {}, 'NOT_ENOUGH_FUNDS', 'INSUFFICIENT_BALANCE'],
    ['Orange mp', '+237691234502', {}, '60019', 'INSUFFICIENT_BALANCE'],
    [
      'Wave (a failed attempt is a hint; the status query expires the session, then fails it)',
      '+2250512345602',
      { operator: 'WAVE' },
      'insufficient-funds',
      'INSUFFICIENT_BALANCE',
    ],
  ])(
    "%s: FAILED with the operator's own code and the service's failure_code",
    async (_name, msisdn, extra, code, failureCode) => {
      const accepted = await cashin(msisdn, extra);
      expect(await finalStatus(accepted.transaction_id)).toMatchObject({
        status: 'FAILED',
        provider_txn_status: code,
        failure_code: failureCode,
      });
    },
  );
});

describe("Wave: a signed webhook is applied only for the cash-in's own amount and currency", () => {
  const plant = async (reference: string, amount: number) => {
    const res = await fetch(`${mocks.urls.wave}/_mock/plant`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ reference, change: { type: 'amount', amount } }),
    });
    expect(res.status).toBe(204);
  };
  /** A Wave cash-in whose customer (06) does not pay by themselves: PENDING, with its checkout session. */
  const waveCashin = async () => {
    const accepted = await cashin('+2250512345606', { operator: 'WAVE' });
    await redirectUrl(accepted.transaction_id);
    return sys.db.transaction.findUniqueOrThrow({ where: { id: accepted.transaction_id } });
  };
  const casesOf = (transactionId: string) => sys.db.reconciliationCase.findMany({ where: { transactionId } });
  const deliveredTo = (reference: string) =>
    waitFor(() => mocks.controls.wave.deliveries().find((d) => d.reference === reference && d.status !== 'dropped'), {
      what: `the Wave event of ${reference}`,
    });

  it('a completed checkout of another amount is not credited: the cash-in stays PENDING and a reconciliation case is open; our own amount is credited as it came', async () => {
    const t = await waveCashin();
    const entries = await sys.db.journalEntry.count({ where: { transactionId: t.id } });
    // Wave says the customer paid 1000 for this 5000 cash-in, in its signed webhook and its session reads.
    await plant(t.providerReference, 1000);
    expect(mocks.controls.wave.complete(t.providerSessionId!)).toBe(true);
    expect((await deliveredTo(t.providerReference)).status).toBe(200);
    const [opened, ...more] = await waitFor(
      async () => {
        const c = await casesOf(t.id);
        return c.length > 0 && c;
      },
      { what: 'the reconciliation case' },
    );
    expect(more).toEqual([]);
    expect(opened).toMatchObject({
      countryCode: 'CI',
      operator: 'WAVE',
      kind: 'CASHIN',
      recordKey: t.providerReference,
      category: 'AMOUNT_DIFFERS',
      state: 'OPEN',
      currency: 'XOF',
      difference: 1000n,
      theirs: expect.objectContaining({ amount: 1000, currency: 'XOF', outcome: 'SUCCESS' }),
      ours: expect.objectContaining({ amount: 5000, outcome: 'PENDING', status: 'PENDING' }),
    });
    expect(await sys.db.transaction.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({
      status: 'PENDING',
      providerTxId: null,
      providerState: 'PENDING',
    });
    expect(await sys.db.journalEntry.count({ where: { transactionId: t.id } })).toBe(entries);
    expect(
      await sys.db.transactionEvent.count({ where: { transactionId: t.id, toStatus: { in: ['SUCCESS', 'FAILED'] } } }),
    ).toBe(0);

    // The same webhook for our own amount is applied as it came.
    const own = await waveCashin();
    expect(mocks.controls.wave.complete(own.providerSessionId!)).toBe(true);
    expect(await finalStatus(own.id)).toMatchObject({ status: 'SUCCESS', provider_tx_id: expect.any(String) });
    expect(await decidedBy(own.id)).toBe('operator-result:callback');
    expect(await casesOf(own.id)).toEqual([]);
  });
});

describe("Orange mp: only Orange's own 404 says a payment was never received", () => {
  it("a push unanswered on every attempt whose status query meets a proxy's 404 (HTML) waits PENDING, and Orange's status decides it when the customer approves", async () => {
    const mp = mocks.controls.orangeMp;
    // Every pay reaches Orange and its answer is lost (the first pays, the later ones are refused as a used token);
    // then the last attempt's status query gets a proxy's page instead of Orange's answer.
    mp.fault('pay', { kind: 'drop-after' }, 4);
    mp.fault('status', PROXY_NOT_FOUND_PAGE);
    // 09: the customer approves the prompt late (the mocks' late delay, 5 s).
    const accepted = await cashin('+237691234509');
    const pending = await waitFor(
      async () => {
        const t = await sys.db.transaction.findUniqueOrThrow({ where: { id: accepted.transaction_id } });
        return t.status !== 'INITIATED' && t.status !== 'CREATED' ? t : undefined;
      },
      { what: `the push of ${accepted.transaction_id} decided after its last attempt` },
    );
    expect(pending).toMatchObject({ status: 'PENDING', failureCode: null });
    expect(
      (await sys.db.transactionEvent.findFirstOrThrow({ where: { transactionId: pending.id, toStatus: 'PENDING' } }))
        .cause,
    ).toBe('push-timeout:outcome-unknown');

    expect(await finalStatus(accepted.transaction_id)).toMatchObject({
      status: 'SUCCESS',
      provider_tx_id: expect.any(String),
    });
    expect(mp.paysFor(pending.providerReference)).toBe(1);
    // Credited, not held in suspense as the late success of a FAILED cash-in would be.
    expect(await sys.db.refund.count({ where: { transactionId: pending.id } })).toBe(0);
  });
});

describe('refunds and payouts through the real operators', () => {
  const refund = (transactionId: string, amount?: number) =>
    sys.api(
      'POST',
      '/api/v1/refunds',
      { transaction_id: transactionId, ...(amount ? { amount } : {}), reason: 'returned' },
      { timestamp: freshTimestamp() },
    );
  const refundDecided = (id: string) =>
    waitFor(
      async () => {
        const data = (await sys.api('GET', `/api/v1/refunds/${id}`)).body.data;
        return data.status === 'PENDING' ? undefined : data;
      },
      { what: `refund ${id} decided`, timeoutMs: 20_000 },
    );

  it('MTN refunds asynchronously (202, then its status): PENDING until MTN says SUCCESSFUL, then SUCCESS and REVERSED', async () => {
    const paid = await cashin('+2250512345601');
    await finalStatus(paid.transaction_id);
    const res = await refund(paid.transaction_id);
    expect(res.status).toBe(202);
    expect(await refundDecided(res.body.data.refund_id)).toMatchObject({ status: 'SUCCESS' });
    await waitFor(
      async () => (await sys.api('GET', `/api/v1/payments/${paid.transaction_id}`)).body.data.status === 'REVERSED',
      { what: 'REVERSED' },
    );
  });

  it('Wave refunds a checkout in full; a partial refund is refused by the adapter and FAILED with its reason', async () => {
    const paid = await cashin('+2250512345601', { operator: 'WAVE' });
    await finalStatus(paid.transaction_id);
    const partial = await refund(paid.transaction_id, 1000);
    expect(await refundDecided(partial.body.data.refund_id)).toMatchObject({
      status: 'FAILED',
      failure_reason: expect.stringMatching(/in full only/),
    });
    const full = await refund(paid.transaction_id);
    expect(await refundDecided(full.body.data.refund_id)).toMatchObject({ status: 'SUCCESS' });
  });

  it('Orange WebPay has no refund API: the refund FAILS with that reason, and the reservation is released', async () => {
    const accepted = await cashin('+2250712345601');
    const t = await sys.db.transaction.findUniqueOrThrow({ where: { id: accepted.transaction_id } });
    await redirectUrl(accepted.transaction_id);
    mocks.controls.orangeWebpay.pay(
      (await sys.db.transaction.findUniqueOrThrow({ where: { id: t.id } })).providerSessionId!,
      '+2250712345601',
    );
    await finalStatus(accepted.transaction_id);
    const res = await refund(accepted.transaction_id);
    expect(await refundDecided(res.body.data.refund_id)).toMatchObject({
      status: 'FAILED',
      failure_reason: expect.stringMatching(/no refund API/),
    });
    expect((await sys.api('GET', `/api/v1/payments/${accepted.transaction_id}`)).body.data).toMatchObject({
      status: 'SUCCESS',
      refunded_amount: 0,
    });
  });

  it('MTN pays a cash-out asynchronously (transfer 202, then its status): INITIATED until decided, then SUCCESS', async () => {
    await finalStatus((await cashin('+2250512345601')).transaction_id);
    const res = await sys.api('POST', '/api/v1/payments/cashout', {
      merchant_order_id: newOrderId('op-co'),
      amount: 1000,
      beneficiary_msisdn: '+2250512345601',
    });
    expect(res.status).toBe(202);
    expect(res.body.data.operator).toBe('MTN');
    expect(await finalStatus(res.body.data.transaction_id)).toMatchObject({
      status: 'SUCCESS',
      type: 'CASHOUT',
      provider_tx_id: expect.any(String),
    });
  });
});
