import { randomUUID } from 'node:crypto';
import { OrangeWebpayAdapter, type OrangeWebpayConfig, type UssdPushRequest } from '@mm/operators';
import { startReceiver, waitFor, type Receiver } from '@mm/testing';
import { startOrangeWebpayMock, type OrangeWebpayMockOptions } from './app.js';
import { DEMO_ORANGE_WEBPAY } from '../demo-credentials.js';

export const WEBPAY_CREDENTIALS = DEMO_ORANGE_WEBPAY;

/** The WebPay mock on a free port with ms-scale delays, a notification receiver, an adapter on both. */
export async function startWebpayHarness(options: Partial<OrangeWebpayMockOptions> = {}) {
  const mock = await startOrangeWebpayMock({
    port: 0,
    ...WEBPAY_CREDENTIALS,
    outcomeDelayMs: 30,
    lateConfirmDelayMs: 200,
    sessionLifetimeMs: 500,
    notifyDelayMs: 5,
    hangMs: 600,
    ...options,
  });
  const receiver: Receiver = await startReceiver();
  const adapterWith = (overrides: Partial<OrangeWebpayConfig> = {}) =>
    new OrangeWebpayAdapter({ baseUrl: mock.url, ...WEBPAY_CREDENTIALS, timeoutMs: 2_000, ...overrides });
  const adapter = adapterWith();
  const request = (overrides: Partial<UssdPushRequest> = {}): UssdPushRequest => {
    const partnerReference = `tx_${randomUUID()}`;
    return {
      partnerReference,
      msisdn: '+2250700000001',
      amount: 1500,
      currency: 'XOF',
      countryCode: 'CI',
      motif: 'Order 42',
      callbackUrl: `${receiver.url}/${partnerReference}`,
      returnUrl: `http://shop.test/pay/${partnerReference}`,
      ...overrides,
    };
  };
  /** Starts a web payment; the customer then pays on the page with a number ending in `suffix`. */
  const payWith = async (suffix: string, overrides: Partial<UssdPushRequest> = {}) => {
    const req = request(overrides);
    const ack = await adapter.pushUssd(req);
    if (!ack.accepted) throw new Error('web payment refused');
    const stored = { ...req, providerSessionId: ack.providerSessionId };
    mock.control.pay(ack.providerSessionId!, `07000000${suffix}`);
    return { req: stored, ack };
  };
  const settled = (req: UssdPushRequest) =>
    waitFor(
      async () => {
        const s = await adapter.queryStatus(req);
        return s.providerState !== 'PENDING' && s;
      },
      { timeoutMs: 5_000, what: 'a decided status' },
    );
  const notificationsFor = (reference: string) =>
    mock.control.notifications.filter((n) => n.url.endsWith(`/${reference}`));
  return {
    mock,
    receiver,
    adapter,
    adapterWith,
    request,
    payWith,
    settled,
    notificationsFor,
    close: async () => {
      await mock.close();
      await receiver.close();
    },
  };
}
export type WebpayHarness = Awaited<ReturnType<typeof startWebpayHarness>>;
