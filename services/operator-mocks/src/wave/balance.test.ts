import { OperatorPendingError } from '@mm/operators';
import { waitFor } from '@mm/testing';
import { plant, today } from '@mm/fake-operator/statement-client';
import { checkout, waveHarness } from './test-support.js';
import { DEMO_WAVE_API_KEY } from './wave-mock.js';

type Harness = Awaited<ReturnType<typeof waveHarness>>;

const get = async (h: Harness, path: string, key: string | null = DEMO_WAVE_API_KEY) => {
  const res = await fetch(`${h.mock.url}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const balance = (h: Harness, query = '') => get(h, `/v1/balance${query}`);
/** The wallet's balance after the last transaction Wave lists (today's, in one page). */
const lastListed = async (h: Harness) =>
  ((await get(h, `/v1/transactions?date=${today()}`)).body.items as { balance: string }[]).at(-1)?.balance;

async function paid(h: Harness, amount: number) {
  const req = checkout('01', amount);
  const ack = await h.adapter.pushUssd(req);
  const providerSessionId = ack.accepted ? ack.providerSessionId! : '';
  await waitFor(() => h.mock.control.session(providerSessionId)?.payment_status === 'succeeded', {
    what: 'the payment',
  });
  return { ...req, providerSessionId };
}

describe("Wave: GET /v1/balance (docs.wave.com/balance-api), the wallet's balance after what the mock did", () => {
  it("starts at the opening balance, then moves with each executed checkout, refund and payout, net of Wave's fees, as its list says", async () => {
    const h = await waveHarness({ openingBalance: 50_000 });
    try {
      await expect(balance(h)).resolves.toEqual({ status: 200, body: { amount: '50000', currency: 'XOF' } });
      const first = await paid(h, 1000);
      await paid(h, 2000);
      expect((await balance(h)).body).toEqual({ amount: '52970', currency: 'XOF' }); // 990 + 1980
      await h.adapter.refund({
        partnerReference: `${first.partnerReference}-r`,
        originalPartnerReference: first.partnerReference,
        amount: 1000,
        currency: 'XOF',
        original: { ...first, providerTxId: null },
      });
      expect((await balance(h)).body).toEqual({ amount: '51980', currency: 'XOF' }); // the 990 given back
      const payout = {
        partnerReference: `wave-co-${Date.now()}`,
        msisdn: '+2250700000001',
        amount: 500,
        currency: 'XOF',
        reason: null,
      };
      await waitFor(
        () =>
          h.adapter.disburse(payout).catch((e: unknown) => {
            if (e instanceof OperatorPendingError) return undefined;
            throw e;
          }),
        { what: 'the payout' },
      );
      expect((await balance(h)).body).toEqual({ amount: '51475', currency: 'XOF' }); // 500 and its fee of 5
      expect(await lastListed(h)).toBe('51475');
      // A checkout never paid moved nothing.
      await h.adapter.pushUssd(checkout('06'));
      expect((await balance(h)).body.amount).toBe('51475');
    } finally {
      await h.close();
    }
  });

  it('tells what its books tell: a planted difference shows in the balance as in the list', async () => {
    const h = await waveHarness({ openingBalance: 0 });
    try {
      const a = await paid(h, 1000);
      await plant(`${h.mock.url}/_mock`, a.partnerReference, { type: 'drop' });
      await plant(`${h.mock.url}/_mock`, 'THEIRS', { type: 'unknown', kind: 'CASHIN', amount: 300, currency: 'XOF' });
      expect((await balance(h)).body).toEqual({ amount: '297', currency: 'XOF' });
      expect(await lastListed(h)).toBe('297');
    } finally {
      await h.close();
    }
  });

  it("takes include_subaccounts (the mock has none: the same balance), refuses another value, and keeps Wave's key and faults", async () => {
    const h = await waveHarness();
    try {
      expect(await balance(h, '?include_subaccounts=true')).toEqual({
        status: 200,
        body: { amount: '1000000', currency: 'XOF' },
      });
      expect(await balance(h, '?include_subaccounts=maybe')).toMatchObject({
        status: 400,
        body: { code: 'request-validation-error' },
      });
      expect(await get(h, '/v1/balance', null)).toMatchObject({ status: 401, body: { code: 'missing-auth-header' } });
      h.mock.control.fault('getBalance', { status: 503 });
      expect((await balance(h)).status).toBe(503);
      expect((await balance(h)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
