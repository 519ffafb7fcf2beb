import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { setMerchantStatus } from '@mm/db/merchants';
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  MerchantDisabledError,
  MobileMoneyClient,
  NotConfiguredError,
  NotFoundError,
  RateLimitError,
  sign,
  signRequest,
  UnprocessableError,
  type CashinRequest,
  type TransactionStatusChangedEvent,
} from '@mm/sdk';
import { freePort, waitFor } from '@mm/testing';
import { anotherMerchant, newOrderId, onceHeard } from './support/contract.js';
import { startSdkWebhookEndpoint } from './support/sdk-merchant.js';
import { CI_NUMBER, startSystem, type System } from './support/system.js';

/** The merchant SDK against the real system: every method, its typed errors, its retries and its webhook middleware. */
let sys: System;
let client: MobileMoneyClient;
let endpoint: Awaited<ReturnType<typeof startSdkWebhookEndpoint>>;
/** A second gateway: cash-out off and 1 request/s, for 501 and 429. */
let limitedUrl: string;
/** Today, UTC, when asked (a run may cross midnight). */
const today = () => new Date().toISOString().slice(0, 10);

const order = (o: Partial<CashinRequest> = {}): CashinRequest => ({
  merchant_order_id: newOrderId('sdk'),
  amount: 5000,
  customer_msisdn: CI_NUMBER('01'),
  notify_url: `${endpoint.url}/hooks`,
  ...o,
});
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );

beforeAll(async () => {
  sys = await startSystem({ gatewayEnv: { DISBURSEMENT_ENABLED: 'true' } });
  limitedUrl = (await sys.startExtraGateway({ RATE_LIMIT_PER_S: '1', RATE_LIMIT_BURST: '1' })).url;
  client = new MobileMoneyClient({
    apiKey: sys.merchant.apiKey,
    apiSecret: sys.merchant.apiSecret,
    baseUrl: sys.gatewayUrl,
  });
  endpoint = await startSdkWebhookEndpoint(sys.merchant.apiSecret);
});
afterAll(async () => {
  await endpoint?.close();
  await sys?.stop();
});

describe('MobileMoneyClient against the system', () => {
  let paidId: string;

  it('takes a payment; the SUCCESS webhook passes the middleware, typed; the payment reads back SUCCESS', async () => {
    const cashin = await client.createCashin(order({ motif: 'Commande 42', metadata: { cart: 'c-9' } }));
    // PENDING once the push is acknowledged; the simulator may already have confirmed it.
    expect(cashin).toMatchObject({
      type: 'CASHIN',
      status: expect.stringMatching(/^(PENDING|SUCCESS)$/),
      amount: 5000,
      currency: 'XOF',
      country_code: 'CI',
      msisdn: '+22507******01',
    });
    paidId = cashin.transaction_id;
    const event = await waitFor(
      () =>
        endpoint.events.find(
          (e): e is TransactionStatusChangedEvent =>
            e.event === 'transaction.status_changed' && e.transaction_id === paidId,
        ),
      { what: 'the SUCCESS webhook through the middleware' },
    );
    expect(event).toMatchObject({ status: 'SUCCESS', merchant_order_id: cashin.merchant_order_id, amount: 5000 });
    expect(await client.getPayment(paidId)).toMatchObject({
      transaction_id: paidId,
      status: 'SUCCESS',
      provider_state: 'OK',
      completed_at: expect.any(String),
    });
  });

  it('the same order sent twice at once is one transaction: the second is signed in the next second, not refused as a replay', async () => {
    const body = order();
    const [first, again] = await Promise.all([client.createCashin(body), client.createCashin(body)]);
    expect(again.transaction_id).toBe(first.transaction_id);
    expect(await sys.db.transaction.count({ where: { merchantOrderId: body.merchant_order_id } })).toBe(1);
  });

  it('refunds in part (an Idempotency-Key of its own), the refund webhook arrives verified, the refund reads back', async () => {
    const pending = await client.createCashin(order({ customer_msisdn: CI_NUMBER('55') }));
    const refused = await errorOf(client.createRefund({ transaction_id: pending.transaction_id }));
    // The key the client made up travels with the error, for a retry of the same refund.
    expect(refused).toMatchObject({
      constructor: ConflictError,
      code: 'INVALID_STATE',
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const refund = await client.createRefund({ transaction_id: paidId, amount: 1500, reason: 'one item returned' });
    expect(refund).toMatchObject({ transaction_id: paidId, amount: 1500, status: 'PENDING' });
    const key = `sdk-refund-${Date.now()}`;
    const once = await client.createRefund({ transaction_id: paidId, amount: 500 }, { idempotencyKey: key });
    expect(
      (await client.createRefund({ transaction_id: paidId, amount: 500 }, { idempotencyKey: key })).refund_id,
    ).toBe(once.refund_id);
    await waitFor(async () => (await client.getRefund(refund.refund_id)).status === 'SUCCESS' || undefined, {
      what: 'the refund to succeed',
    });
    expect(await sys.db.refund.count({ where: { transactionId: paidId } })).toBe(2);
    // Like the transaction's own events, to its notify_url: through the middleware, verified and typed.
    const notified = await waitFor(
      () => endpoint.events.find((e) => e.event === 'refund.status_changed' && e.refund_id === refund.refund_id),
      { what: 'the refund webhook' },
    );
    expect(notified).toMatchObject({ status: 'SUCCESS', amount: 1500, transaction_id: paidId });
  });

  it('creates a payment link once though its first answer was lost: the retry carries the same Idempotency-Key', async () => {
    const keys: string[] = [];
    // The first creation reaches the service, which makes the link; its answer never comes back.
    const losing: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/payment-links')) {
        keys.push(new Headers(init!.headers).get('idempotency-key')!);
        if (keys.length === 1) throw new TypeError('fetch failed: the connection was reset');
      }
      return res;
    };
    const retrying = new MobileMoneyClient({
      apiKey: sys.merchant.apiKey,
      apiSecret: sys.merchant.apiSecret,
      baseUrl: sys.gatewayUrl,
      fetch: losing,
    });
    const description = `SDK link ${Date.now()}`;
    const link = await retrying.createPaymentLink({ description, country_code: 'CI', amount: 2500 });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    const made = await sys.db.paymentLink.findMany({ where: { description }, select: { id: true } });
    expect(made).toEqual([{ id: link.payment_link_id }]);
    // A refusal carries the key it was sent with, as a refund's does.
    expect(await errorOf(client.createPaymentLink({ description, country_code: 'CI', amount: 0 }))).toMatchObject({
      constructor: InvalidRequestError,
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('balances, the export as JSON and as a CSV stream, and the webhook events with their attempts', async () => {
    const balances = await client.listBalances();
    expect(balances.find((b) => b.country_code === 'CI')).toMatchObject({
      currency: 'XOF',
      available_balance: expect.any(Number),
    });
    const exported = await client.exportTransactions({ date_from: today(), date_to: today() });
    expect(exported.meta).toMatchObject({ date_from: today(), date_to: today(), count: exported.data.length });
    expect(exported.data.map((r) => r.transaction_id)).toContain(paidId);
    const csv = await text(
      Readable.fromWeb(
        (await client.exportTransactionsCsv({ date_from: today(), date_to: today(), country_code: 'CI' })) as never,
      ),
    );
    expect(csv.split('\r\n')[0]).toMatch(/^transaction_id,merchant_order_id,type,status,amount/);
    expect(csv).toContain(paidId);
    const events = await client.listWebhookEvents({ transaction_id: paidId });
    expect(events.find((e) => e.event === 'transaction.status_changed')).toMatchObject({
      status: 'DELIVERED',
      attempts: [expect.objectContaining({ success: true })],
    });
  });

  it('its timeout bounds the wait for an answer, not a download read for longer than it', async () => {
    const quick = new MobileMoneyClient({
      apiKey: sys.merchant.apiKey,
      apiSecret: sys.merchant.apiSecret,
      baseUrl: sys.gatewayUrl,
      timeoutMs: 1000,
    });
    const stream = await quick.exportTransactionsCsv({ date_from: today(), date_to: today() });
    const reader = stream.getReader();
    const first = await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the reader is slower than the timeout
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(new TextDecoder().decode(first.value) + rest).toContain(paidId);
  });

  it('sends X-Service-Request-Signature over the method, path, query and body of every request, which the service checks', async () => {
    const sent: { method: string; url: URL; headers: Headers; body: string }[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push({
        method: init!.method!,
        url: new URL(String(input)),
        headers: new Headers(init!.headers),
        body: String(init!.body ?? ''),
      });
      return fetch(input, init);
    };
    const recorded = new MobileMoneyClient({
      apiKey: sys.merchant.apiKey,
      apiSecret: sys.merchant.apiSecret,
      baseUrl: sys.gatewayUrl,
      fetch: recording,
    });
    await recorded.listBalances();
    await recorded.exportTransactions({ date_from: today(), date_to: today(), country_code: 'CI' });
    await recorded.createCashin(order({ customer_msisdn: CI_NUMBER('06') }));
    expect(sent.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'GET /api/v1/balances',
      'GET /api/v1/transactions/export',
      'POST /api/v1/payments/cashin',
    ]);
    for (const r of sent) {
      const ts = r.headers.get('x-service-timestamp')!;
      expect(r.headers.get('x-service-request-signature')).toBe(
        signRequest(sys.merchant.apiSecret, ts, r.method, `${r.url.pathname}${r.url.search}`, r.body),
      );
    }
    // Moved to another path on its way, as a captured request replayed elsewhere would be: refused.
    const moving: typeof fetch = (input, init) => fetch(String(input).replace('/balances', '/webhook-events'), init);
    const moved = new MobileMoneyClient({
      apiKey: sys.merchant.apiKey,
      apiSecret: sys.merchant.apiSecret,
      baseUrl: sys.gatewayUrl,
      fetch: moving,
      maxRetries: 0,
    });
    expect(await errorOf(moved.listBalances())).toMatchObject({
      constructor: AuthenticationError,
      status: 401,
      code: 'INVALID_SIGNATURE',
    });
  });

  it('cash-out where it is on, NotConfiguredError where it is off', async () => {
    const payout = await client.createCashout({
      merchant_order_id: newOrderId('sdk-out'),
      amount: 1000,
      beneficiary_msisdn: CI_NUMBER('33'),
    });
    expect(payout).toMatchObject({ type: 'CASHOUT', payment_method: 'WALLET_TRANSFER', amount: 1000 });
    const off = new MobileMoneyClient({
      apiKey: sys.merchant.apiKey,
      apiSecret: sys.merchant.apiSecret,
      baseUrl: limitedUrl,
    });
    const err = await errorOf(
      off.createCashout({
        merchant_order_id: newOrderId('sdk-out'),
        amount: 1000,
        beneficiary_msisdn: CI_NUMBER('33'),
      }),
    );
    expect(err).toBeInstanceOf(NotConfiguredError);
    expect(err).toMatchObject({ status: 501, code: 'DISBURSEMENT_NOT_CONFIGURED', requestId: expect.any(String) });
  });
});

describe('typed errors', () => {
  it('400 with the fields, 404, 409, 422 as their own classes', async () => {
    const invalid = await errorOf(client.createCashin({ ...order(), amount: '5000' as unknown as number }));
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: [{ field: 'amount', issue: expect.any(String) }],
    });
    expect(await errorOf(client.getPayment('00000000-0000-4000-8000-000000000000'))).toMatchObject({
      constructor: NotFoundError,
      code: 'NOT_FOUND',
    });
    const body = order();
    await client.createCashin(body);
    expect(await errorOf(client.createCashin({ ...body, amount: 7000 }))).toMatchObject({
      constructor: ConflictError,
      code: 'DUPLICATE_ORDER_ID',
    });
    expect(await errorOf(client.createCashin(order({ amount: 50 })))).toMatchObject({
      constructor: UnprocessableError,
      code: 'AMOUNT_OUT_OF_RANGE',
    });
  });

  it('401 for a wrong secret, 403 for a disabled merchant', async () => {
    const forged = new MobileMoneyClient({
      apiKey: sys.merchant.apiKey,
      apiSecret: 'sk_wrong',
      baseUrl: sys.gatewayUrl,
    });
    expect(await errorOf(forged.listBalances())).toMatchObject({
      constructor: AuthenticationError,
      status: 401,
      code: 'INVALID_SIGNATURE',
    });
    const other = await anotherMerchant(sys, 'Boutique Fermée');
    await setMerchantStatus(sys.db, other.id, 'DISABLED');
    await onceHeard(() => other.api('GET', '/api/v1/balances'), 403);
    const disabled = new MobileMoneyClient({
      apiKey: other.apiKey,
      apiSecret: other.apiSecret,
      baseUrl: sys.gatewayUrl,
    });
    expect(await errorOf(disabled.listBalances())).toMatchObject({
      constructor: MerchantDisabledError,
      code: 'MERCHANT_DISABLED',
    });
  });

  it('429: RateLimitError without retries; with them, the client waits Retry-After and succeeds', async () => {
    const m = await anotherMerchant(sys, 'Boutique Pressée');
    const impatient = new MobileMoneyClient({
      apiKey: m.apiKey,
      apiSecret: m.apiSecret,
      baseUrl: limitedUrl,
      maxRetries: 0,
    });
    const outcomes = await Promise.allSettled([
      impatient.listBalances(),
      impatient.listBalances(),
      impatient.listBalances(),
    ]);
    const refused = outcomes
      .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      .map((o) => o.reason as RateLimitError);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]).toMatchObject({
      constructor: RateLimitError,
      code: 'RATE_LIMITED',
      retryAfterS: expect.any(Number),
    });
    const patient = new MobileMoneyClient({
      apiKey: m.apiKey,
      apiSecret: m.apiSecret,
      baseUrl: limitedUrl,
      maxRetries: 5,
    });
    const all = await Promise.all([patient.listBalances(), patient.listBalances(), patient.listBalances()]);
    expect(all.every((b) => Array.isArray(b) && b.length > 0)).toBe(true);
  });

  it('ConnectionError when nothing answers', async () => {
    const nowhere = new MobileMoneyClient({
      apiKey: 'pk_x',
      apiSecret: 'sk_x',
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      maxRetries: 0,
    });
    expect(await errorOf(nowhere.listBalances())).toBeInstanceOf(ConnectionError);
  });
});

describe('webhookMiddleware', () => {
  const event = () =>
    JSON.stringify({
      event: 'transaction.status_changed',
      event_id: crypto.randomUUID(),
      transaction_id: crypto.randomUUID(),
      status: 'SUCCESS',
    });
  const post = (path: string, body: string, secret: string, ts = String(Math.floor(Date.now() / 1000))) =>
    fetch(`${endpoint.url}${path}`, {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Service-Timestamp': ts,
        'X-Service-Signature': sign(secret, ts, body),
      },
    });

  it('answers 401 to a forged or stale webhook and never reaches the handler', async () => {
    const before = endpoint.events.length;
    expect((await post('/hooks', event(), 'sk_forged')).status).toBe(401);
    expect(
      (await post('/hooks', event(), sys.merchant.apiSecret, String(Math.floor(Date.now() / 1000) - 400))).status,
    ).toBe(401);
    expect(endpoint.events.length).toBe(before);
    expect((await post('/hooks', event(), sys.merchant.apiSecret)).status).toBe(204);
    expect(endpoint.events.length).toBe(before + 1);
  });

  it('works behind express.raw(), and fails loudly behind express.json() (the signed bytes are gone)', async () => {
    expect((await post('/raw-first', event(), sys.merchant.apiSecret)).status).toBe(204);
    const misplaced = await post('/parsed-first', event(), sys.merchant.apiSecret);
    expect(misplaced.status).toBe(500);
    expect(await misplaced.text()).toContain('webhookMiddleware needs the raw body');
  });

  it('acknowledges (204) a genuine event of a type it does not know, without handing it to the handler', async () => {
    const before = endpoint.events.length;
    const newer = JSON.stringify({ event: 'payout.status_changed', event_id: crypto.randomUUID() });
    expect((await post('/hooks', newer, sys.merchant.apiSecret)).status).toBe(204);
    expect((await post('/hooks', newer, 'sk_forged')).status).toBe(401);
    expect(endpoint.events.length).toBe(before);
  });
});
