import { randomUUID } from 'node:crypto';
import { OrangeMpAdapter, type UssdPushRequest } from '@mm/operators';
import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import { startOrangeMpMock, type OrangeMpMockOptions } from './app.js';
import { DEMO_ORANGE_MP } from '../demo-credentials.js';

export const MP_CREDENTIALS = DEMO_ORANGE_MP;

/** The mp mock on a free port with ms-scale delays, a receiver for its notifications, an adapter on both. */
export async function startMpHarness(options: Partial<OrangeMpMockOptions> = {}) {
  const mock = await startOrangeMpMock({
    port: 0,
    ...MP_CREDENTIALS,
    outcomeDelayMs: 30,
    lateConfirmDelayMs: 250,
    payTokenLifetimeMs: 500,
    duplicateWindowMs: 60_000,
    notifyDelayMs: 5,
    hangMs: 600,
    ...options,
  });
  const receiver: Receiver = await startReceiver();
  const adapterWith = (timeoutMs = 2_000) => new OrangeMpAdapter({ baseUrl: mock.url, ...MP_CREDENTIALS, timeoutMs });
  const adapter = adapterWith();
  let amount = 1000;
  const request = (suffix: string, overrides: Partial<UssdPushRequest> = {}): UssdPushRequest => {
    const partnerReference = `tx_${randomUUID()}`;
    // A new amount each time: the same number and amount twice would hit Orange's duplicate window.
    amount += 5;
    return {
      partnerReference,
      msisdn: `+2376990000${suffix}`,
      amount,
      currency: 'XAF',
      countryCode: 'CM',
      motif: 'Order 42',
      callbackUrl: `${receiver.url}/${partnerReference}`,
      ...overrides,
    };
  };
  /** What the bridge does: prepare, store the payToken, push with it. */
  const pay = async (req: UssdPushRequest) => {
    const { providerSessionId } = await adapter.prepare();
    const withToken = { ...req, providerSessionId };
    return { req: withToken, ack: await adapter.pushUssd(withToken) };
  };
  const settled = (req: UssdPushRequest, what = 'a decided status') =>
    waitFor(
      async () => {
        const s = await adapter.queryStatus(req);
        return s.providerState !== 'PENDING' && s;
      },
      { timeoutMs: 5_000, what },
    );
  /** Notifications the mock delivered (and the receiver answered) for this reference's callback URL. */
  const notificationsFor = (reference: string) =>
    mock.control.notifications.filter((n) => n.url.endsWith(`/${reference}`));
  return {
    mock,
    receiver,
    adapter,
    adapterWith,
    request,
    pay,
    settled,
    notificationsFor,
    close: async () => {
      await mock.close();
      await receiver.close();
    },
  };
}
export type MpHarness = Awaited<ReturnType<typeof startMpHarness>>;
