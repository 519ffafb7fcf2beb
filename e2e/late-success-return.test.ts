import { transactionTimeline } from '@mm/db/payments';
import { verifyLedger } from '@mm/db/ledger';
import { createRedisConnection, operatorResults, QueueProducer, refundRequests } from '@mm/queues';
import { sumBy, waitFor } from '@mm/testing';
import type { Redis } from 'ioredis';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/**
 * A late success for a FAILED cash-in (decisions 13, docs/reliability.md's first residual risk): the
 * operator answers "never saw it" to the status query after the push got no answer, the cash-in ends
 * FAILED, and then the operator registers the push and the customer confirms (simulator number ending 13).
 * The customer's money goes back through the operator's refund, once, by itself; the merchant sees nothing.
 */
let sys: System;
let connection: Redis;
let results: QueueProducer<object>;
let refundJobs: QueueProducer<object>;

beforeAll(async () => {
  // 4 push attempts of 300 ms and the status query end well before the operator registers the push (5 s).
  sys = await startSystem({ operatorTimeoutMs: 300, hangMs: 1000, lateConfirmDelayMs: 5000 });
  connection = createRedisConnection(sys.redis.url);
  results = new QueueProducer(operatorResults, { connection, redisPrefix: sys.redis.prefix }) as QueueProducer<object>;
  refundJobs = new QueueProducer(refundRequests, {
    connection,
    redisPrefix: sys.redis.prefix,
  }) as QueueProducer<object>;
});
afterAll(async () => {
  await results.close();
  await refundJobs.close();
  connection.disconnect();
  await sys.stop();
});

const metric = async (url: string, outcome: string) =>
  sumBy(await (await fetch(`${url}/metrics`)).text(), 'mm_late_success_returns_total', (l) => l.outcome!)[outcome] ?? 0;
const okForFailed = async () =>
  Object.values(
    sumBy(
      await (await fetch(`${sys.internalUrls.bridge}/metrics`)).text(),
      'mm_operator_ok_for_failed_cashin_total',
      () => 'all',
    ),
  )[0] ?? 0;
const callbacks = async () =>
  Object.values(
    sumBy(await (await fetch(`${sys.internalUrls.bridge}/metrics`)).text(), 'mm_operator_callbacks_total', () => 'all'),
  )[0] ?? 0;
const suspense = async () =>
  (await sys.db.ledgerAccount.findFirst({ where: { merchantId: null, countryCode: 'CI', kind: 'CUSTOMER_SUSPENSE' } }))
    ?.balance;
const returnsOf = (transactionId: string) => sys.db.refund.findMany({ where: { transactionId } });

it("returns the customer's money through the operator, once, with the merchant's view unchanged", async () => {
  const res = await sys.api('POST', '/api/v1/payments/cashin', {
    merchant_order_id: `late-${Date.now()}`,
    amount: 5000,
    customer_msisdn: CI_NUMBER('13'),
  });
  expect(res.status).toBe(202);
  const { transaction_id: id, provider_reference: reference } = res.body.data as {
    transaction_id: string;
    provider_reference: string;
  };

  // FAILED: the push got no answer and the operator said it never saw it. The merchant is told.
  await waitFor(async () => (await sys.db.transaction.findUniqueOrThrow({ where: { id } })).status === 'FAILED', {
    what: 'FAILED',
    timeoutMs: 15_000,
  });
  await waitFor(() => sys.receiver.received.find((w) => w.body.transaction_id === id && w.body.status === 'FAILED'), {
    what: 'FAILED webhook',
    timeoutMs: 15_000,
  });
  const merchantView = (await sys.api('GET', `/api/v1/payments/${id}`)).body;
  expect(merchantView.data).toMatchObject({ status: 'FAILED', failure_code: 'OPERATOR_UNAVAILABLE' });
  const balances = (await sys.api('GET', '/api/v1/balances')).body;
  expect(sys.sim.pushCount(reference)).toBe(0);

  // The operator registers the push, the customer confirms: the money is returned through a refund.
  const [ret] = await waitFor(
    async () => {
      const found = await returnsOf(id);
      return found.length > 0 && found.every((r) => r.status === 'SUCCESS') ? found : undefined;
    },
    { what: 'the return paid back', timeoutMs: 20_000 },
  );
  expect(ret).toMatchObject({
    origin: 'LATE_SUCCESS',
    amount: 5000n,
    status: 'SUCCESS',
    providerRefundId: expect.stringMatching(/^RF/),
  });
  expect(sys.sim.pushCount(reference)).toBe(1);
  expect(sys.sim.refundCount(ret!.providerReference)).toBe(1);
  const recorded = (await (await sys.sandbox('/sandbox/refunds')).json()) as {
    refunds: { partner_reference: string; original_partner_reference: string }[];
  };
  expect(recorded.refunds.filter((r) => r.original_partner_reference === reference)).toEqual([
    expect.objectContaining({
      partner_reference: ret!.providerReference,
      amount: 5000,
      status: 200,
      refund_count: 1,
      original_refunded_amount: 5000,
    }),
  ]);

  // The ledger: suspense back to zero, everything verifies.
  expect(await suspense()).toBe(0n);
  expect(await verifyLedger(sys.db)).toMatchObject({ ok: true, problems: [] });

  // The merchant: the same FAILED transaction, the same balances, no webhook but the FAILED one.
  expect((await sys.api('GET', `/api/v1/payments/${id}`)).body).toEqual(merchantView);
  expect((await sys.api('GET', '/api/v1/balances')).body).toEqual(balances);
  expect((await sys.api('GET', `/api/v1/refunds/${ret!.id}`)).status).toBe(404);
  expect(await sys.db.webhookEvent.findMany({ where: { transactionId: id }, select: { eventType: true } })).toEqual([
    { eventType: 'transaction.status_changed' },
  ]);
  expect(sys.receiver.received.filter((w) => w.body.transaction_id === id).map((w) => w.body.status)).toEqual([
    'FAILED',
  ]);

  // Counted, and on the transaction's timeline.
  expect(await metric(sys.internalUrls.bridge, 'started')).toBe(1);
  expect(await metric(sys.internalUrls.refunds, 'returned')).toBe(1);
  expect(await metric(sys.internalUrls.refunds, 'failed')).toBe(0);
  const timeline = (await transactionTimeline(sys.db, id))!;
  expect(
    timeline.items.map((i) =>
      i.kind === 'state' ? i.to : i.kind === 'refund' ? `${i.kind}:${i.origin}:${i.status}` : i.kind,
    ),
  ).toEqual(['CREATED', 'INITIATED', 'FAILED', 'webhook', 'late-success', 'refund:LATE_SUCCESS:SUCCESS']);

  // The operator's OK again (its callback resent), the result job run again, the return's job run again:
  // nothing is returned twice.
  // Resent within the same second, the delivery is the same signed bytes and the bridge's replay guard
  // takes it as a replay; in a later second it is taken and counted as an OK for a FAILED cash-in.
  // Either way it reached the bridge, and nothing below may have changed.
  const [okBefore, callbacksBefore] = [await okForFailed(), await callbacks()];
  expect((await sys.sandbox(`/sandbox/payments/${reference}/resend-callback`, { method: 'POST' })).status).toBe(202);
  await waitFor(async () => (await callbacks()) > callbacksBefore, { what: 'the repeated OK received' });
  expect((await okForFailed()) - okBefore).toBeLessThanOrEqual(1);
  await results.add(
    {
      provider_reference: reference,
      provider_state: 'OK',
      provider_txn_status: '200',
      provider_tx_id: 'MPREPLAY',
      provider_session_id: null,
      failure_reason: null,
      source: 'callback',
    },
    { jobId: `late-again-${id}` },
  );
  const returnRow = await sys.db.outbox.findFirstOrThrow({
    where: { topic: refundRequests.name, payload: { path: ['refund_id'], equals: ret!.id } },
  });
  await refundJobs.add({ outbox_id: returnRow.id, refund_id: ret!.id }, { jobId: `late-refund-again-${id}` });
  await waitFor(
    async () =>
      (await results.queue.getJob(`late-again-${id}`)) === undefined &&
      (await refundJobs.queue.getJob(`late-refund-again-${id}`)) === undefined,
    { what: 'the repeated jobs done' },
  );
  expect(await returnsOf(id)).toEqual([ret]);
  expect(sys.sim.refundCount(ret!.providerReference)).toBe(1);
  expect(await metric(sys.internalUrls.bridge, 'started')).toBe(1);
  expect(await metric(sys.internalUrls.refunds, 'returned')).toBe(1);
  expect(await suspense()).toBe(0n);
  expect(await verifyLedger(sys.db)).toMatchObject({ ok: true });
  expect((await sys.api('GET', `/api/v1/payments/${id}`)).body).toEqual(merchantView);
  expect(await sys.db.webhookEvent.count({ where: { transactionId: id } })).toBe(1);
}, 60_000);
