import { request as httpRequest } from 'node:http';
import { OperatorRefusedError, OperatorUnavailableError } from '@mm/operators';
import { DEMO_SUBSCRIPTION_KEYS } from './options.js';
import { accountCredentials, COLLECTION_USER, startMtnHarness, type MtnHarness } from './test-harness.js';

/** A raw POST without Content-Length (Node sends chunked when told nothing about the length). */
function postWithoutLength(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('MTN MoMo token flow (Basic on /<product>/token/, Bearer after), through the adapter', () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => h.mock.control.reset());

  const basic = `Basic ${Buffer.from(`${COLLECTION_USER.userId}:${COLLECTION_USER.apiKey}`).toString('base64')}`;

  it('the token endpoint answers 411 without a Content-Length, and {access_token, token_type, expires_in} with one', async () => {
    const headers = { 'Ocp-Apim-Subscription-Key': DEMO_SUBSCRIPTION_KEYS.collection, Authorization: basic };
    expect(await postWithoutLength(`${h.mock.url}/collection/token/`, headers)).toBe(411);
    const res = await fetch(`${h.mock.url}/collection/token/`, { method: 'POST', headers, body: '' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      access_token: expect.any(String),
      token_type: 'access_token',
      expires_in: 3600,
    });
  });

  it('a collection token is refused by Disbursement: one token per product', async () => {
    const token = await h.token('collection');
    const res = await h.raw(
      'GET',
      '/disbursement/v1_0/transfer/0b7c3e5a-6f1d-4c2b-9a8e-1d2c3b4a5f61',
      token,
      'disbursement',
    );
    expect(res.status).toBe(401);
  });

  it('concurrent calls of a fresh adapter share one token request', async () => {
    const adapter = h.adapterWith({});
    const before = h.mock.control.tokenRequests('collection');
    await Promise.all(Array.from({ length: 8 }, () => adapter.queryStatus(h.lookup(h.request('01')))));
    expect(h.mock.control.tokenRequests('collection') - before).toBe(1);
    await adapter.queryStatus(h.lookup(h.request('01')));
    expect(h.mock.control.tokenRequests('collection') - before).toBe(1);
  });

  it('a token expired mid-flight (401) is refreshed once and the call retried once: the push goes through, once', async () => {
    const adapter = h.adapterWith({});
    await adapter.queryStatus(h.lookup(h.request('01')));
    const before = h.mock.control.tokenRequests('collection');
    h.mock.control.expireTokens();
    const req = h.request('01');
    await expect(adapter.pushUssd(req)).resolves.toMatchObject({ accepted: true });
    expect(h.mock.control.tokenRequests('collection') - before).toBe(1);
    expect(h.record(req.partnerReference)!.posts).toBe(1);
  });

  it('concurrent calls hitting an expired token share one refresh', async () => {
    const adapter = h.adapterWith({});
    await adapter.queryStatus(h.lookup(h.request('01')));
    h.mock.control.expireTokens();
    const before = h.mock.control.tokenRequests('collection');
    await Promise.all(Array.from({ length: 5 }, () => adapter.queryStatus(h.lookup(h.request('01')))));
    expect(h.mock.control.tokenRequests('collection') - before).toBe(1);
  });

  it('a wrong API key is our credentials: a plain Error, neither refusal nor outage', async () => {
    const adapter = h.adapterWith({ credentials: accountCredentials({ collectionApiKey: 'wrong' }) });
    const error = await adapter.pushUssd(h.request('01')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorRefusedError);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toContain('API user');
    expect(String(error)).not.toContain('wrong');
  });

  it('a wrong subscription key (401 on the token request) is a plain Error too', async () => {
    const adapter = h.adapterWith({ credentials: accountCredentials({ collectionSubscriptionKey: 'nope' }) });
    const error = await adapter.queryStatus(h.lookup(h.request('01'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
  });

  it('integrators\' 500 {"error":"login_failed"} on the token request is our credentials as well', async () => {
    h.mock.control.fault('token', { status: 500, body: { error: 'login_failed' } });
    const error = await h
      .adapterWith({})
      .queryStatus(h.lookup(h.request('01')))
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(OperatorUnavailableError);
    expect(String(error)).toContain('refused our collection API user');
  });

  it('a token endpoint answering 503 is an outage: OperatorUnavailableError', async () => {
    h.mock.control.fault('token', { status: 503 });
    await expect(h.adapterWith({}).queryStatus(h.lookup(h.request('01')))).rejects.toBeInstanceOf(
      OperatorUnavailableError,
    );
  });

  it('a 401 again after the refresh is returned as our credentials, after exactly one retry', async () => {
    const adapter = h.adapterWith({});
    await adapter.queryStatus(h.lookup(h.request('01')));
    const before = h.mock.control.tokenRequests('collection');
    h.mock.control.fault('requesttopay-status', { status: 401, body: { statusCode: 401, message: 'x' } }, 2);
    const error = await adapter.queryStatus(h.lookup(h.request('01'))).catch((e: unknown) => e);
    expect(String(error)).toContain('credentials');
    expect(h.mock.control.tokenRequests('collection') - before).toBe(1);
  });
});
