import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signPayload } from '@mm/domain';
import { OperatorUnavailableError } from '../operator-adapter.js';
import { SimulatorOperatorAdapter } from './client.js';

/** A stand-in operator answering whatever the test sets; the end-to-end protocol is tested in @mm/operator-simulator. */
interface Answer { status: number; body?: unknown; delayMs?: number }

describe('SimulatorOperatorAdapter against a scripted HTTP server', () => {
  let server: Server;
  let baseUrl: string;
  let answer: Answer;
  let seen: { method: string; url: string; authorization: string | undefined; body: string }[];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
        const reply = () => res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => { seen = []; });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const adapter = (timeoutMs = 1_000) => new SimulatorOperatorAdapter({ baseUrl, apiToken: 'tok', callbackSecret: 'sec', timeoutMs });
  const request = { partnerReference: 'tx/1', msisdn: '+2250700000001', amount: 100, currency: 'XOF', motif: null, callbackUrl: 'http://h/cb' };

  it('posts the push with the bearer token and the snake_case body', async () => {
    answer = { status: 201, body: { session_id: 'S1', state: 'PENDING' } };
    await expect(adapter().pushUssd(request)).resolves.toEqual({ accepted: true, providerSessionId: 'S1' });
    expect(seen).toEqual([{ method: 'POST', url: '/v1/payments/ussd-push', authorization: 'Bearer tok', body: expect.any(String) }]);
    expect(JSON.parse(seen[0]!.body)).toEqual({ partner_reference: 'tx/1', msisdn: '+2250700000001', amount: 100, currency: 'XOF', motif: null, callback_url: 'http://h/cb' });
  });

  it.each([500, 502, 503, 504, 429, 408])('a %s to the push is OperatorUnavailableError', async (status) => {
    answer = { status };
    await expect(adapter().pushUssd(request)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it.each([400, 401, 403, 404, 422])('a %s to the push is a plain Error: our request is wrong, retrying will not help', async (status) => {
    answer = { status, body: { error: 'x' } };
    const error = await adapter().pushUssd(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
  });

  it('an answer outside the protocol is OperatorUnavailableError (nothing is known, the push may be retried)', async () => {
    answer = { status: 201, body: { state: 'PENDING' } };
    await expect(adapter().pushUssd(request)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('an answer slower than timeoutMs is OperatorUnavailableError', async () => {
    answer = { status: 201, body: { session_id: 'S1' }, delayMs: 300 };
    await expect(adapter(50).pushUssd(request)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('a refused connection is OperatorUnavailableError, for both calls', async () => {
    const down = new SimulatorOperatorAdapter({ baseUrl: 'http://127.0.0.1:1', apiToken: 'tok', callbackSecret: 'sec', timeoutMs: 1_000 });
    await expect(down.pushUssd(request)).rejects.toBeInstanceOf(OperatorUnavailableError);
    await expect(down.queryStatus('tx_1')).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('queries the status with the reference URL-encoded and maps 5xx / 4xx like the push', async () => {
    answer = { status: 200, body: { partner_reference: 'tx/1', session_id: 'S1', state: 'PENDING', txn_status: null, provider_tx_id: null, failure_reason: null } };
    await expect(adapter().queryStatus('tx/1')).resolves.toMatchObject({ found: true, providerState: 'PENDING' });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v1/payments/tx%2F1', authorization: 'Bearer tok' });
    answer = { status: 503 };
    await expect(adapter().queryStatus('tx_1')).rejects.toBeInstanceOf(OperatorUnavailableError);
    answer = { status: 401 };
    const error = await adapter().queryStatus('tx_1').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toMatch(/401/);
  });
});

describe('SimulatorOperatorAdapter.refund against a scripted HTTP server', () => {
  let server: Server;
  let baseUrl: string;
  let answer: Answer;
  let seen: { method: string; url: string; authorization: string | undefined; body: string }[];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
        const reply = () => res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => { seen = []; });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const adapter = (timeoutMs = 1_000) => new SimulatorOperatorAdapter({ baseUrl, apiToken: 'tok', callbackSecret: 'sec', timeoutMs });
  const refund = { partnerReference: 'rf_1', originalPartnerReference: 'tx_1', amount: 250.5, currency: 'XOF' };

  it('posts the refund with the bearer token and the snake_case body, and maps 200 OK', async () => {
    answer = { status: 200, body: { state: 'OK', refund_id: 'RF123' } };
    await expect(adapter().refund(refund)).resolves.toEqual({ state: 'OK', providerRefundId: 'RF123' });
    expect(seen).toEqual([{ method: 'POST', url: '/v1/refunds', authorization: 'Bearer tok', body: expect.any(String) }]);
    expect(JSON.parse(seen[0]!.body)).toEqual({ partner_reference: 'rf_1', original_partner_reference: 'tx_1', amount: 250.5, currency: 'XOF' });
  });

  it.each([
    [200, { state: 'FAILED', reason: 'REFUND_REJECTED' }, 'REFUND_REJECTED'],
    [200, { state: 'FAILED', reason: 'AMOUNT_EXCEEDS_REFUNDABLE' }, 'AMOUNT_EXCEEDS_REFUNDABLE'],
    [404, { error: 'unknown_transaction' }, 'UNKNOWN_TRANSACTION'],
    [409, { error: 'not_refundable' }, 'NOT_REFUNDABLE'],
  ])('a %s %j is FAILED / %s', async (status, body, reason) => {
    answer = { status, body };
    await expect(adapter().refund(refund)).resolves.toEqual({ state: 'FAILED', reason });
  });

  it.each([500, 502, 503, 504, 429, 408])('a %s to the refund is OperatorUnavailableError', async (status) => {
    answer = { status };
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
    answer = { status, body };
    const error = await adapter().refund(refund).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toContain(String(status));
  });

  it.each([
    [200, { state: 'OK' }],
    [200, { state: 'PENDING', refund_id: 'RF1' }],
    [201, { state: 'OK', refund_id: 'RF1' }],
  ])('a %s %j is outside the protocol: OperatorUnavailableError (the refund is idempotent, retrying is safe)', async (status, body) => {
    answer = { status, body };
    await expect(adapter().refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('an answer slower than timeoutMs is OperatorUnavailableError', async () => {
    answer = { status: 200, body: { state: 'OK', refund_id: 'RF1' }, delayMs: 300 };
    await expect(adapter(50).refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });

  it('a refused connection is OperatorUnavailableError', async () => {
    const down = new SimulatorOperatorAdapter({ baseUrl: 'http://127.0.0.1:1', apiToken: 'tok', callbackSecret: 'sec', timeoutMs: 1_000 });
    await expect(down.refund(refund)).rejects.toBeInstanceOf(OperatorUnavailableError);
  });
});

describe('SimulatorOperatorAdapter.parseCallback', () => {
  const adapter = new SimulatorOperatorAdapter({ baseUrl: 'http://127.0.0.1:1', apiToken: 't', callbackSecret: 'sec', timeoutMs: 1_000, callbackToleranceS: 60 });
  const nowMs = 1_750_000_000_000;
  const ts = String(nowMs / 1000);
  const raw = Buffer.from(JSON.stringify({ partner_reference: 'tx_1', session_id: 'S1', provider_tx_id: null, state: 'canceled', txn_status: null, failure_reason: null }));
  const signed = (body: Buffer | string, timestamp = ts) => ({ 'x-operator-timestamp': timestamp, 'x-operator-signature': signPayload('sec', timestamp, body) });

  it('accepts a correctly signed callback, whatever the header case', () => {
    const headers = signed(raw);
    expect(adapter.parseCallback(raw, { 'X-Operator-Timestamp': headers['x-operator-timestamp'], 'X-OPERATOR-SIGNATURE': headers['x-operator-signature'] }, nowMs)).toEqual({
      partnerReference: 'tx_1', providerSessionId: 'S1', providerState: 'canceled', providerTxnStatus: null, providerTxId: null, failureReason: null,
    });
  });

  it('uses the configured tolerance', () => {
    expect(adapter.parseCallback(raw, signed(raw), nowMs + 60_000)).not.toBeNull();
    expect(adapter.parseCallback(raw, signed(raw), nowMs + 61_000)).toBeNull();
  });

  it('rejects a signature over another timestamp, a non-numeric timestamp and repeated headers', () => {
    const other = String(nowMs / 1000 - 1);
    expect(adapter.parseCallback(raw, { 'x-operator-timestamp': ts, 'x-operator-signature': signed(raw, other)['x-operator-signature'] }, nowMs)).toBeNull();
    expect(adapter.parseCallback(raw, signed(raw, 'abc'), nowMs)).toBeNull();
    const h = signed(raw);
    expect(adapter.parseCallback(raw, { ...h, 'x-operator-signature': [h['x-operator-signature'], 'x'] }, nowMs)).toBeNull();
  });

  it('rejects a correctly signed body that is not JSON or not the protocol', () => {
    const notJson = Buffer.from('state=OK');
    expect(adapter.parseCallback(notJson, signed(notJson), nowMs)).toBeNull();
    const wrongShape = Buffer.from(JSON.stringify({ partner_reference: 'tx_1', state: 'DONE' }));
    expect(adapter.parseCallback(wrongShape, signed(wrongShape), nowMs)).toBeNull();
  });
});
