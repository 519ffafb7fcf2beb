import { randomUUID } from 'node:crypto';
import { waitFor } from '@mm/testing';
import { DEMO_MTN } from './demo-credentials.js';
import { startOperatorMocks, type RunningOperatorMocks } from './operator-mocks.js';

/** The mocks as the demo runs them (`pnpm start`, e2e): on free ports here. */
describe("the demo's contract mocks", () => {
  let mocks: RunningOperatorMocks;
  beforeAll(async () => {
    mocks = await startOperatorMocks({
      ports: { mtnCi: 0, mtnCm: 0, orangeWebpay: 0, orangeMp: 0, wave: 0 },
      waveWebhookUrl: null,
      outcomeDelayMs: 50,
      lateConfirmDelayMs: 500,
      waveAutoPay: true,
      providerCallbackHost: 'bridge.demo.test',
    });
  });
  afterAll(async () => {
    await mocks.close();
  });

  /** A call of the demo's Collection API user, as MTN's own client makes it. */
  async function collection(
    base: string,
    targetEnvironment: string,
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Response> {
    const subscription = { 'Ocp-Apim-Subscription-Key': DEMO_MTN.subscriptionKeys.collection };
    const { userId, apiKey } = DEMO_MTN.apiUsers.collection;
    const token = await fetch(`${base}/collection/token/`, {
      method: 'POST',
      body: '',
      headers: { ...subscription, Authorization: `Basic ${Buffer.from(`${userId}:${apiKey}`).toString('base64')}` },
    });
    const { access_token } = (await token.json()) as { access_token: string };
    return fetch(`${base}${path}`, {
      ...init,
      headers: {
        ...subscription,
        Authorization: `Bearer ${access_token}`,
        'X-Target-Environment': targetEnvironment,
        ...init.headers,
      },
    });
  }
  /** The requests to pay accepted so far (202): each is approved after outcomeDelayMs and credits the account. */
  const accepted: string[] = [];
  const requestToPay = async (callbackUrl: string) => {
    const reference = randomUUID();
    const res = await collection(mocks.urls.mtnCi, DEMO_MTN.targetEnvironments.mtnCi, '/collection/v1_0/requesttopay', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Reference-Id': reference, 'X-Callback-Url': callbackUrl },
      body: JSON.stringify({
        amount: '5000',
        currency: 'XOF',
        externalId: `ref-${randomUUID()}`,
        payer: { partyIdType: 'MSISDN', partyId: '2250512345601' },
        payerMessage: 'demo',
        payeeNote: 'demo',
      }),
    });
    if (res.status === 202) accepted.push(reference);
    return res;
  };

  it("MTN checks X-Callback-Url against the demo API users' providerCallbackHost, the bridge's callback host: another one is 500 INVALID_CALLBACK_URL_HOST", async () => {
    const elsewhere = await requestToPay('http://elsewhere.example/operator/callbacks/mtn/ci/ref');
    expect(elsewhere.status).toBe(500);
    expect(await elsewhere.json()).toMatchObject({ code: 'INVALID_CALLBACK_URL_HOST' });
    expect((await requestToPay('http://bridge.demo.test:3002/operator/callbacks/mtn/ci/ref')).status).toBe(202);
  });

  it("each MTN market's account holds its own currency: XOF in Côte d'Ivoire, XAF in Cameroon", async () => {
    // Côte d'Ivoire holds what every request to pay of this mock brought (this one, and any of the test
    // above), once MTN has approved them; Cameroon, none.
    expect((await requestToPay('http://bridge.demo.test:3002/operator/callbacks/mtn/ci/ref')).status).toBe(202);
    for (const reference of accepted) {
      await waitFor(
        async () =>
          (
            (await (
              await collection(
                mocks.urls.mtnCi,
                DEMO_MTN.targetEnvironments.mtnCi,
                `/collection/v1_0/requesttopay/${reference}`,
              )
            ).json()) as { status: string }
          ).status === 'SUCCESSFUL' || undefined,
        { what: `request to pay ${reference} approved` },
      );
    }
    const ci = await collection(
      mocks.urls.mtnCi,
      DEMO_MTN.targetEnvironments.mtnCi,
      '/collection/v1_0/account/balance',
    );
    expect(await ci.json()).toEqual({ availableBalance: String(5000 * accepted.length), currency: 'XOF' });
    const cm = await collection(
      mocks.urls.mtnCm,
      DEMO_MTN.targetEnvironments.mtnCm,
      '/collection/v1_0/account/balance',
    );
    expect(await cm.json()).toEqual({ availableBalance: '0', currency: 'XAF' });
    expect(
      (await collection(mocks.urls.mtnCm, DEMO_MTN.targetEnvironments.mtnCm, '/collection/v1_0/account/balance/XOF'))
        .status,
    ).toBe(500);
  });
});
