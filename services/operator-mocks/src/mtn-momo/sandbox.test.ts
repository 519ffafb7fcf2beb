import { randomUUID } from 'node:crypto';
import { createAccountAdapter } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { DEMO_SUBSCRIPTION_KEYS } from './options.js';
import { accountCredentials, startMtnHarness, type MtnHarness } from './test-harness.js';

describe('MTN MoMo sandbox behaviour: test numbers, EUR only, provisioning, callback host', () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness({ targetEnvironment: 'sandbox', reasonFormat: 'object' });
  });
  afterAll(async () => {
    await h.close();
  });

  const sandboxPush = (msisdn: string) => h.request('00', { msisdn, currency: 'EUR', amount: 5 });
  const statusOf = (req: ReturnType<typeof sandboxPush>) => h.adapter.queryStatus(h.lookup(req));
  const decided = (req: ReturnType<typeof sandboxPush>) =>
    waitFor(
      async () => {
        const r = await statusOf(req);
        return r.providerState !== 'PENDING' && r;
      },
      { what: 'a decided status' },
    );

  it.each([
    ['+46733123450', 'INTERNAL_PROCESSING_ERROR', 'KO'],
    ['+46733123451', 'APPROVAL_REJECTED', 'canceled'],
    ['+46733123452', 'EXPIRED', 'canceled'],
  ])('%s fails with %s (the reason as {code, message}, as the OpenAPI file has it)', async (msisdn, reason, state) => {
    const req = sandboxPush(msisdn);
    await h.adapter.pushUssd(req);
    await expect(decided(req)).resolves.toMatchObject({ providerState: state, providerTxnStatus: reason });
  });

  it('56733123453 succeeds', async () => {
    const req = sandboxPush('+56733123453');
    await h.adapter.pushUssd(req);
    await expect(decided(req)).resolves.toMatchObject({ providerState: 'OK', providerTxnStatus: '200' });
  });

  it('46733123453 stays PENDING, then FAILED EXPIRED by callback after sandboxExpiryMs', async () => {
    const req = sandboxPush('+46733123453');
    await h.adapter.pushUssd(req);
    expect(h.record(req.partnerReference)!.status).toBe('PENDING');
    await expect(decided(req)).resolves.toMatchObject({
      providerState: 'canceled',
      providerTxnStatus: 'EXPIRED',
      failureCode: 'CUSTOMER_DID_NOT_VALIDATE',
    });
    await waitFor(
      () => h.receiver.requests.find((r) => r.body.includes('EXPIRED') && r.body.includes(req.partnerReference)),
      { what: 'the EXPIRED callback' },
    );
  });

  it('46733123454 is CREATED (read as PENDING), then SUCCESSFUL after createdDelayMs', async () => {
    const req = sandboxPush('+46733123454');
    await h.adapter.pushUssd(req);
    expect(h.record(req.partnerReference)!.status).toBe('CREATED');
    await expect(statusOf(req)).resolves.toMatchObject({ found: true, providerState: 'PENDING' });
    await expect(decided(req)).resolves.toMatchObject({ providerState: 'OK' });
  });

  it('a non-EUR currency in the sandbox is 500 INVALID_CURRENCY: a refusal of the push, not an outage', async () => {
    const req = h.request('01');
    await expect(h.adapter.pushUssd(req)).resolves.toEqual({
      accepted: false,
      providerState: 'KO',
      providerTxnStatus: 'INVALID_CURRENCY',
      failureCode: 'OPERATOR_REJECTED',
    });
    expect(h.record(req.partnerReference)).toBeUndefined();
  });

  it("a callback host other than the API user's is 500 INVALID_CALLBACK_URL_HOST: refused", async () => {
    const req = { ...sandboxPush('+56733123453'), callbackUrl: 'http://elsewhere.example/cb/x' };
    await expect(h.adapter.pushUssd(req)).resolves.toEqual({
      accepted: false,
      providerState: 'KO',
      providerTxnStatus: 'INVALID_CALLBACK_URL_HOST',
      failureCode: 'OPERATOR_REJECTED',
    });
  });

  it('another X-Target-Environment is 500 NOT_ALLOWED_TARGET_ENVIRONMENT: refused', async () => {
    const adapter = h.adapterWith({ targetEnvironment: 'mtncameroon' });
    await expect(adapter.pushUssd(sandboxPush('+56733123453'))).resolves.toMatchObject({
      accepted: false,
      providerTxnStatus: 'NOT_ALLOWED_TARGET_ENVIRONMENT',
    });
  });

  it('provisioning: POST /v1_0/apiuser then /apikey give a user the adapter can use; a reused user id is 409', async () => {
    const userId = randomUUID();
    const headers = {
      'Ocp-Apim-Subscription-Key': DEMO_SUBSCRIPTION_KEYS.collection,
      'Content-Type': 'application/json',
    };
    const create = () =>
      fetch(`${h.mock.url}/v1_0/apiuser`, {
        method: 'POST',
        headers: { ...headers, 'X-Reference-Id': userId },
        body: JSON.stringify({ providerCallbackHost: '127.0.0.1' }),
      });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(409);
    const keyRes = await fetch(`${h.mock.url}/v1_0/apiuser/${userId}/apikey`, { method: 'POST', headers });
    expect(keyRes.status).toBe(201);
    const { apiKey } = (await keyRes.json()) as { apiKey: string };
    expect(await (await fetch(`${h.mock.url}/v1_0/apiuser/${userId}`, { headers })).json()).toEqual({
      providerCallbackHost: '127.0.0.1',
      targetEnvironment: 'sandbox',
    });
    const adapter = createAccountAdapter('mtn-momo', {
      baseUrl: h.mock.url,
      credentials: accountCredentials({ collectionApiUser: userId, collectionApiKey: apiKey }),
      settings: {},
      timeoutMs: 2_000,
    });
    await expect(adapter.pushUssd(sandboxPush('+56733123453'))).resolves.toMatchObject({ accepted: true });
  });

  it('provisioning refuses a user id that is not a UUID v4', async () => {
    const res = await fetch(`${h.mock.url}/v1_0/apiuser`, {
      method: 'POST',
      headers: {
        'Ocp-Apim-Subscription-Key': DEMO_SUBSCRIPTION_KEYS.collection,
        'X-Reference-Id': 'MM123',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ providerCallbackHost: 'h' }),
    });
    expect(res.status).toBe(400);
  });
});
