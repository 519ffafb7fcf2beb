import { startReceiver, type ReceivedRequest } from '@mm/testing';
import { WaveOperatorAdapter } from '@mm/operators';
import { DEMO_WAVE_API_KEY, DEMO_WAVE_WEBHOOK_SECRET, startWaveMock, type WaveMockOptions } from './wave-mock.js';

/** A Wave mock on a free port, a webhook endpoint it posts to, and the real adapter pointed at both. */
export async function waveHarness(options: WaveMockOptions & { timeoutMs?: number } = {}) {
  const receiver = await startReceiver();
  const mock = await startWaveMock({
    port: 0,
    webhookUrl: receiver.url,
    outcomeDelayMs: 40,
    lateConfirmDelayMs: 500,
    webhookDelayMs: 5,
    ...options,
  });
  const adapterWith = (over: Partial<ConstructorParameters<typeof WaveOperatorAdapter>[0]> = {}) =>
    new WaveOperatorAdapter({
      baseUrl: mock.url,
      apiKey: DEMO_WAVE_API_KEY,
      webhookSecret: DEMO_WAVE_WEBHOOK_SECRET,
      timeoutMs: options.timeoutMs ?? 1_000,
      ...over,
    });
  const adapter = adapterWith();
  return {
    receiver,
    mock,
    adapter,
    adapterWith,
    parse: (r: ReceivedRequest, nowMs = Date.now()) =>
      adapter.parseCallback(Buffer.from(r.body, 'utf8'), r.headers, nowMs),
    close: async () => {
      await mock.close();
      await receiver.close();
    },
  };
}

let n = 0;
/** A fresh reference and a checkout request for a payer number ending in `ending`. */
export function checkout(ending: string, amount = 1000) {
  const partnerReference = `wave-test-${process.pid}-${++n}`;
  return {
    partnerReference,
    msisdn: `+2250700000${ending}`,
    amount,
    currency: 'XOF',
    motif: null,
    callbackUrl: 'http://bridge.test/callbacks/wave',
    returnUrl: 'http://gateway.test/pay/tx-1',
  };
}
