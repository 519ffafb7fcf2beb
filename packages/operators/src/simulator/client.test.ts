import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signPayload } from '@mm/domain';
import { OperatorRefusedError, OperatorUnavailableError } from '../operator-adapter.js';
import { SimulatorOperatorAdapter } from './client.js';
import { lookup } from '../testing/payment-lookup.js';

/** A stand-in operator answering whatever the test sets; the end-to-end protocol is tested in @mm/operator-simulator. */
interface Answer {
  status: number;
  body?: unknown;
  delayMs?: number;
}
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/**
 * Inside a describe block: one scripted server for the block. Set `answer` before a call; `seen` holds the
 * requests of the current test. Read both through the returned object (set in beforeAll / beforeEach).
 */
function scriptedOperator() {
  let server: Server;
  const ctx = {
    answer: { status: 500 } as Answer,
    seen: [] as Seen[],
    baseUrl: '',
    adapter: (timeoutMs = 1_000) =>
      new SimulatorOperatorAdapter({ baseUrl: ctx.baseUrl, apiToken: 'tok', callbackSecret: 'sec', timeoutMs }),
  };
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        ctx.seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
        const { answer } = ctx;
        const reply = () =>
          res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ctx.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    ctx.seen = [];
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return ctx;
}

describe('SimulatorOperatorAdapter against a scripted HTTP server', () => {
  const op = scriptedOperator();
  const adapter = (timeoutMs?: number) => op.adapter(timeoutMs);
  const request = {
    partnerReference: 'tx/1',
    msisdn: '+2250700000001',
    amount: 100,
    currency: 'XOF',
    motif: null,
    callbackUrl: 'http://h/cb',
  };

  it('posts the push with the bearer token and the snake_case body', async () => {
    op.answer = { status: 201, body: { session_id: 'S1', state: 'PENDING' } };
    await expect(adapter().pushUssd(request)).resolves.toEqual({ accepted: true, providerSessionId: 'S1' });
    expect(op.seen).toEqual([
      { method: 'POST', url: '/v1/payments/ussd-push', authorization: 'Bearer tok', body: expect.any(String) },
    ]);
    expect(JSON.parse(op.seen[0]!.body)).toEqual({
      partner_reference: 'tx/1',
      msisdn: '+2250700000001',
      amount: 100,
      currency: 'XOF',
      motif: null,
      callback_url: 'http://h/cb',
    });
  });

  it.each([500, 502, 503, 504, 429, 408])('a %s to the push is OperatorUnavailableError', async (status) => {
    op.answer = { status };
    await expect(adapter().pushUssd(request)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it.each([400, 404, 409, 422])(
    'a %s to the push is OperatorRefusedError: our request is wrong, retrying will not help',
    async (status) => {
      op.answer = { status, body: { error: 'x' } };
      const error = await adapter()
        .pushUssd(request)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OperatorRefusedError);
      expect(error).toMatchObject({ operation: 'push', httpStatus: status, detail: '{"error":"x"}' });
    },
  );

  it.each([401, 403])(
    'a %s to the push is neither a refusal nor unavailability: our credentials, not the payment',
    async (status) => {
      op.answer = { status, body: { error: 'x' } };
      const error = await adapter()
        .pushUssd(request)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(OperatorRefusedError);
      expect(error).not.toBeInstanceOf(OperatorUnavailableError);
      expect(String(error)).toContain('credentials');
    },
  );

  it('an answer outside the protocol is OperatorUnavailableError (nothing is known, the push may be retried)', async () => {
    op.answer = { status: 201, body: { state: 'PENDING' } };
    await expect(adapter().pushUssd(request)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('an answer slower than timeoutMs is OperatorUnavailableError', async () => {
    op.answer = { status: 201, body: { session_id: 'S1' }, delayMs: 300 };
    await expect(adapter(50).pushUssd(request)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('a refused connection is OperatorUnavailableError, for both calls', async () => {
    const down = new SimulatorOperatorAdapter({
      baseUrl: 'http://127.0.0.1:1',
      apiToken: 'tok',
      callbackSecret: 'sec',
      timeoutMs: 1_000,
    });
    await expect(down.pushUssd(request)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(down.queryStatus(lookup('tx_1'))).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('queries the status with the reference URL-encoded and maps 5xx / 4xx like the push', async () => {
    op.answer = {
      status: 200,
      body: {
        partner_reference: 'tx/1',
        session_id: 'S1',
        state: 'PENDING',
        txn_status: null,
        provider_tx_id: null,
        failure_reason: null,
      },
    };
    await expect(adapter().queryStatus(lookup('tx/1'))).resolves.toMatchObject({
      found: true,
      providerState: 'PENDING',
    });
    expect(op.seen[0]).toMatchObject({ method: 'GET', url: '/v1/payments/tx%2F1', authorization: 'Bearer tok' });
    op.answer = { status: 503 };
    await expect(adapter().queryStatus(lookup('tx_1'))).rejects.toBeInstanceOf(OperatorUnavailableError);
    op.answer = { status: 401 };
    const error = await adapter()
      .queryStatus(lookup('tx_1'))
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toMatch(/401/);
  });
});

describe('SimulatorOperatorAdapter.refund against a scripted HTTP server', () => {
  const op = scriptedOperator();
  const adapter = (timeoutMs?: number) => op.adapter(timeoutMs);
  const refund = { partnerReference: 'rf_1', originalPartnerReference: 'tx_1', amount: 250.5, currency: 'XOF' };

  it('posts the refund with the bearer token and the snake_case body, and maps 200 OK', async () => {
    op.answer = { status: 200, body: { state: 'OK', refund_id: 'RF123' } };
    await expect(adapter().refund(refund)).resolves.toEqual({ state: 'OK', providerRefundId: 'RF123' });
    expect(op.seen).toEqual([
      { method: 'POST', url: '/v1/refunds', authorization: 'Bearer tok', body: expect.any(String) },
    ]);
    expect(JSON.parse(op.seen[0]!.body)).toEqual({
      partner_reference: 'rf_1',
      original_partner_reference: 'tx_1',
      amount: 250.5,
      currency: 'XOF',
    });
  });

  it.each([
    [200, { state: 'FAILED', reason: 'REFUND_REJECTED' }, 'REFUND_REJECTED'],
    [200, { state: 'FAILED', reason: 'AMOUNT_EXCEEDS_REFUNDABLE' }, 'AMOUNT_EXCEEDS_REFUNDABLE'],
    [404, { error: 'unknown_transaction' }, 'UNKNOWN_TRANSACTION'],
    [409, { error: 'not_refundable' }, 'NOT_REFUNDABLE'],
  ])('a %s %j is FAILED / %s', async (status, body, reason) => {
    op.answer = { status, body };
    await expect(adapter().refund(refund)).resolves.toEqual({ state: 'FAILED', reason });
  });

  it.each([500, 502, 503, 504, 429, 408])('a %s to the refund is OperatorUnavailableError', async (status) => {
    op.answer = { status };
    await expect(adapter().refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it.each([
    [400, { error: 'invalid_request' }],
    [401, { error: 'unauthorized' }],
    [403, {}],
    [422, {}],
    [404, { error: 'not_found' }],
    [409, { error: 'conflict' }],
  ])('a %s %j is a plain Error: our request (or our configuration) is wrong', async (status, body) => {
    op.answer = { status, body };
    const error = await adapter()
      .refund(refund)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toContain(String(status));
    // Only a refusal of the request itself may fail the refund for good; 401/403 are our credentials.
    if (status === 401 || status === 403) expect(error).not.toBeInstanceOf(OperatorRefusedError);
    else expect(error).toMatchObject({ name: 'OperatorRefusedError', operation: 'refund', httpStatus: status });
  });

  it.each([
    [200, { state: 'OK' }],
    [200, { state: 'PENDING', refund_id: 'RF1' }],
    [201, { state: 'OK', refund_id: 'RF1' }],
  ])(
    'a %s %j is outside the protocol: OperatorUnavailableError (the refund is idempotent, retrying is safe)',
    async (status, body) => {
      op.answer = { status, body };
      await expect(adapter().refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
    },
  );

  it('an answer slower than timeoutMs is OperatorUnavailableError', async () => {
    op.answer = { status: 200, body: { state: 'OK', refund_id: 'RF1' }, delayMs: 300 };
    await expect(adapter(50).refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('a refused connection is OperatorUnavailableError', async () => {
    const down = new SimulatorOperatorAdapter({
      baseUrl: 'http://127.0.0.1:1',
      apiToken: 'tok',
      callbackSecret: 'sec',
      timeoutMs: 1_000,
    });
    await expect(down.refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });
});

describe('SimulatorOperatorAdapter.disburse against a scripted HTTP server', () => {
  const op = scriptedOperator();
  const adapter = (timeoutMs?: number) => op.adapter(timeoutMs);
  const disbursement = {
    partnerReference: 'co/1',
    msisdn: '+2250700000042',
    amount: 7500.25,
    currency: 'XOF',
    reason: 'Payout 7',
  };

  it("posts the disbursement with the bearer token and the snake_case body, and maps 200 OK to the operator's id", async () => {
    op.answer = { status: 200, body: { state: 'OK', disbursement_id: 'DB123' } };
    await expect(adapter().disburse(disbursement)).resolves.toEqual({ state: 'OK', providerTxId: 'DB123' });
    expect(op.seen).toEqual([
      { method: 'POST', url: '/v1/disbursements', authorization: 'Bearer tok', body: expect.any(String) },
    ]);
    expect(JSON.parse(op.seen[0]!.body)).toEqual({
      partner_reference: 'co/1',
      msisdn: '+2250700000042',
      amount: 7500.25,
      currency: 'XOF',
      reason: 'Payout 7',
    });
  });

  it('sends a null reason as null', async () => {
    op.answer = { status: 200, body: { state: 'OK', disbursement_id: 'DB1' } };
    await adapter().disburse({ ...disbursement, reason: null });
    expect(JSON.parse(op.seen[0]!.body)).toMatchObject({ reason: null });
  });

  it.each(['BENEFICIARY_NOT_FOUND', 'BENEFICIARY_LIMIT_EXCEEDED', 'SOMETHING_NEW'])(
    'a 200 FAILED %s is FAILED with that reason',
    async (reason) => {
      op.answer = { status: 200, body: { state: 'FAILED', reason } };
      await expect(adapter().disburse(disbursement)).resolves.toEqual({ state: 'FAILED', reason });
    },
  );

  it.each([500, 502, 503, 504, 429, 408])('a %s to the disbursement is OperatorUnavailableError', async (status) => {
    op.answer = { status, body: { error: 'unavailable' } };
    await expect(adapter().disburse(disbursement)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it.each([
    [400, { error: 'invalid_request' }],
    [401, { error: 'unauthorized' }],
    [403, {}],
    [404, { error: 'not_found' }],
    [409, { error: 'conflict' }],
    [422, {}],
  ])('a %s %j is a plain Error: our request (or our configuration) is wrong', async (status, body) => {
    op.answer = { status, body };
    const error = await adapter()
      .disburse(disbursement)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toContain(String(status));
    // Only a refusal of the request itself may fail the disbursement for good; 401/403 are our credentials.
    if (status === 401 || status === 403) expect(error).not.toBeInstanceOf(OperatorRefusedError);
    else expect(error).toMatchObject({ name: 'OperatorRefusedError', operation: 'disbursement', httpStatus: status });
  });

  it.each([
    [200, { state: 'OK' }],
    [200, { state: 'OK', refund_id: 'RF1' }],
    [200, { state: 'PENDING', disbursement_id: 'DB1' }],
    [201, { state: 'OK', disbursement_id: 'DB1' }],
    [202, { state: 'OK', disbursement_id: 'DB1' }],
  ])(
    'a %s %j is outside the protocol: OperatorUnavailableError (the disbursement is idempotent, retrying is safe)',
    async (status, body) => {
      op.answer = { status, body };
      await expect(adapter().disburse(disbursement)).rejects.toBeInstanceOf(OperatorUnavailableError);
    },
  );

  it('an answer slower than timeoutMs is OperatorUnavailableError', async () => {
    op.answer = { status: 200, body: { state: 'OK', disbursement_id: 'DB1' }, delayMs: 300 };
    await expect(adapter(50).disburse(disbursement)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('a refused connection is OperatorUnavailableError', async () => {
    const down = new SimulatorOperatorAdapter({
      baseUrl: 'http://127.0.0.1:1',
      apiToken: 'tok',
      callbackSecret: 'sec',
      timeoutMs: 1_000,
    });
    await expect(down.disburse(disbursement)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });
});

describe('SimulatorOperatorAdapter.parseCallback', () => {
  const adapter = new SimulatorOperatorAdapter({
    baseUrl: 'http://127.0.0.1:1',
    apiToken: 't',
    callbackSecret: 'sec',
    timeoutMs: 1_000,
    callbackToleranceS: 60,
  });
  const nowMs = 1_750_000_000_000;
  const ts = String(nowMs / 1000);
  const raw = Buffer.from(
    JSON.stringify({
      partner_reference: 'tx_1',
      session_id: 'S1',
      provider_tx_id: null,
      state: 'canceled',
      txn_status: null,
      failure_reason: null,
    }),
  );
  const signed = (body: Buffer | string, timestamp = ts) => ({
    'x-operator-timestamp': timestamp,
    'x-operator-signature': signPayload('sec', timestamp, body),
  });

  it('accepts a correctly signed callback, whatever the header case', () => {
    const headers = signed(raw);
    expect(
      adapter.parseCallback(
        raw,
        {
          'X-Operator-Timestamp': headers['x-operator-timestamp'],
          'X-OPERATOR-SIGNATURE': headers['x-operator-signature'],
        },
        nowMs,
      ),
    ).toEqual({
      partnerReference: 'tx_1',
      providerSessionId: 'S1',
      providerState: 'canceled',
      providerTxnStatus: null,
      providerTxId: null,
      failureReason: null,
      replayKey: headers['x-operator-signature'],
    });
  });

  it('uses the configured tolerance', () => {
    expect(adapter.parseCallback(raw, signed(raw), nowMs + 60_000)).not.toBeNull();
    expect(adapter.parseCallback(raw, signed(raw), nowMs + 61_000)).toBeNull();
  });

  it('rejects a signature over another timestamp, a non-numeric timestamp and repeated headers', () => {
    const other = String(nowMs / 1000 - 1);
    expect(
      adapter.parseCallback(
        raw,
        { 'x-operator-timestamp': ts, 'x-operator-signature': signed(raw, other)['x-operator-signature'] },
        nowMs,
      ),
    ).toBeNull();
    expect(adapter.parseCallback(raw, signed(raw, 'abc'), nowMs)).toBeNull();
    const h = signed(raw);
    expect(
      adapter.parseCallback(raw, { ...h, 'x-operator-signature': [h['x-operator-signature'], 'x'] }, nowMs),
    ).toBeNull();
  });

  it('rejects a correctly signed body that is not JSON or not the protocol', () => {
    const notJson = Buffer.from('state=OK');
    expect(adapter.parseCallback(notJson, signed(notJson), nowMs)).toBeNull();
    const wrongShape = Buffer.from(JSON.stringify({ partner_reference: 'tx_1', state: 'DONE' }));
    expect(adapter.parseCallback(wrongShape, signed(wrongShape), nowMs)).toBeNull();
  });
});
