import { OperatorPendingError, type UssdPushRequest } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { plant } from '@mm/fake-operator/statement-client';
import { newReference, startMtnHarness, type MtnHarness } from './test-harness.js';

/**
 * GET /{product}/v1_0/account/balance and .../balance/{currency}, as MTN's clients read them (sparkplug/momoapi-node
 * `getBalance`, MTN-Group/MoMoAPIs_Javascript_sdk `getAccountBalance` and `getAccountBalanceInSpecificCurrency`):
 * `{availableBalance, currency}`, the amount a string.
 */
describe('MTN MoMo: the account balance of each product, after what the mock did', () => {
  let h: MtnHarness;
  beforeAll(async () => {
    h = await startMtnHarness({ openingBalances: { collection: 0, disbursement: 100_000 } });
  });
  afterAll(async () => {
    await h.close();
  });

  const balance = async (product: 'collection' | 'disbursement', suffix = '') => {
    const res = await h.raw('GET', `/${product}/v1_0/account/balance${suffix}`, await h.token(product), product);
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const settled = <T>(call: () => Promise<T>) =>
    waitFor(
      () =>
        call().catch((e: unknown) => {
          if (e instanceof OperatorPendingError) return undefined;
          throw e;
        }),
      { what: 'a decision' },
    );
  async function paid(amount: number): Promise<UssdPushRequest> {
    const req = h.request('01', { amount });
    await h.adapter.pushUssd(req);
    await waitFor(async () => (await h.adapter.queryStatus(h.lookup(req))).providerState === 'OK', {
      what: 'a paid cash-in',
    });
    return req;
  }

  it("collection: the opening balance, then every SUCCESSFUL request to pay in the account's currency; disbursement: less every refund and transfer paid", async () => {
    await expect(balance('collection')).resolves.toEqual({
      status: 200,
      body: { availableBalance: '0', currency: 'XOF' },
    });
    await expect(balance('disbursement')).resolves.toEqual({
      status: 200,
      body: { availableBalance: '100000', currency: 'XOF' },
    });
    const first = await paid(5000);
    await paid(3000);
    await h.adapter.pushUssd(h.request('06')); // never decided: nothing taken
    await expect(balance('collection')).resolves.toEqual({
      status: 200,
      body: { availableBalance: '8000', currency: 'XOF' },
    });

    const refund = {
      partnerReference: newReference(),
      originalPartnerReference: first.partnerReference,
      amount: 2000,
      currency: 'XOF',
    };
    await settled(() => h.adapter.refund(refund));
    const [payout, failing] = [h.payout('01'), h.payout('11')];
    await settled(() => h.adapter.disburse(payout));
    await settled(() => h.adapter.disburse(failing)); // FAILED: nothing paid
    await expect(balance('disbursement')).resolves.toEqual({
      status: 200,
      body: { availableBalance: '95500', currency: 'XOF' },
    });
    // MTN refunds from the disbursement account: the collection account keeps what it took.
    await expect(balance('collection')).resolves.toMatchObject({ body: { availableBalance: '8000' } });
  });

  it("in a given currency (the path MTN-Group's SDK reads): one the account holds, or 500 INVALID_CURRENCY", async () => {
    const before = ((await balance('collection')).body as { availableBalance: string }).availableBalance;
    await expect(balance('collection', '/XOF')).resolves.toEqual({
      status: 200,
      body: { availableBalance: before, currency: 'XOF' },
    });
    await expect(balance('collection', '/XAF')).resolves.toEqual({
      status: 200,
      body: { availableBalance: '0', currency: 'XAF' },
    });
    await expect(balance('collection', '/EUR')).resolves.toEqual({
      status: 500,
      body: { code: 'INVALID_CURRENCY', message: expect.any(String) },
    });
  });

  it('tells a planted difference as its status queries do', async () => {
    const req = await paid(1000);
    const before = Number(((await balance('collection')).body as { availableBalance: string }).availableBalance);
    expect(await plant(`${h.mock.url}/_mock`, req.partnerReference, { type: 'amount', amount: 1500 })).toBe(204);
    await expect(balance('collection')).resolves.toMatchObject({ body: { availableBalance: String(before + 500) } });
  });

  it("takes the product's own key and token and its X-Target-Environment, like every call", async () => {
    const wrongProduct = await h.raw(
      'GET',
      '/collection/v1_0/account/balance',
      await h.token('disbursement'),
      'collection',
    );
    expect(wrongProduct.status).toBe(401);
    const otherEnvironment = await h.raw(
      'GET',
      '/collection/v1_0/account/balance',
      await h.token('collection'),
      'collection',
      { headers: { 'X-Target-Environment': 'mtncameroon' } },
    );
    expect(otherEnvironment.status).toBe(500);
    expect(await otherEnvironment.json()).toMatchObject({ code: 'NOT_ALLOWED_TARGET_ENVIRONMENT' });
    h.mock.control.fault('balance', { status: 503 });
    await expect(balance('collection')).resolves.toMatchObject({ status: 503 });
    await expect(balance('collection')).resolves.toMatchObject({ status: 200 });
  });

  it('the sandbox account holds EUR', async () => {
    const sandbox = await startMtnHarness({ targetEnvironment: 'sandbox' });
    try {
      const res = await sandbox.raw(
        'GET',
        '/collection/v1_0/account/balance',
        await sandbox.token('collection'),
        'collection',
      );
      expect(await res.json()).toEqual({ availableBalance: '0', currency: 'EUR' });
    } finally {
      await sandbox.close();
    }
  });
});
