import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OperatorUnavailableError } from '../operator-adapter.js';
import { lookup } from '../testing/payment-lookup.js';
import { WaveOperatorAdapter } from './client.js';

/**
 * Wave answering 400 checkout-refund-failed to a refund of a checkout: for a paid one, that may be the
 * answer to our own earlier refund whose 200 was lost. A stub server stands in for Wave here: the mock
 * answers a repeated refund 200, so it cannot produce this.
 */
async function waveAnswering(paymentStatus: 'succeeded' | 'cancelled'): Promise<{ url: string; server: Server }> {
  const session = {
    id: 'cos-1',
    amount: '1500',
    currency: 'XOF',
    checkout_status: paymentStatus === 'succeeded' ? 'complete' : 'expired',
    payment_status: paymentStatus,
    transaction_id: paymentStatus === 'succeeded' ? 'T_1' : null,
    client_reference: 'MM1',
    last_payment_error: null,
    wave_launch_url: 'https://pay.wave.com/c/cos-1',
  };
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.method === 'GET' && req.url === '/v1/checkout/sessions/cos-1') return res.end(JSON.stringify(session));
    res.statusCode = 400;
    res.end(JSON.stringify({ code: 'checkout-refund-failed', message: 'The checkout session could not be refunded' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const refundOf = (adapter: WaveOperatorAdapter) =>
  adapter.refund({
    partnerReference: 'RF1',
    originalPartnerReference: 'MM1',
    amount: 1500,
    currency: 'XOF',
    original: { ...lookup('MM1'), providerSessionId: 'cos-1', providerTxId: 'T_1' },
  });
const adapterAt = (baseUrl: string) =>
  new WaveOperatorAdapter({ baseUrl, apiKey: 'wave_ci_prod_key', webhookSecret: 's', timeoutMs: 2000 });

describe('Wave refusing a refund (checkout-refund-failed)', () => {
  it('of a paid checkout is an unknown outcome (maybe already refunded by our own lost request), never FAILED', async () => {
    const wave = await waveAnswering('succeeded');
    try {
      await expect(refundOf(adapterAt(wave.url))).rejects.toBeInstanceOf(OperatorUnavailableError);
    } finally {
      wave.server.close();
    }
  });

  it("of a checkout that was never paid is FAILED with Wave's reason", async () => {
    const wave = await waveAnswering('cancelled');
    try {
      await expect(refundOf(adapterAt(wave.url))).resolves.toEqual({
        state: 'FAILED',
        reason: 'checkout-refund-failed: The checkout session could not be refunded',
      });
    } finally {
      wave.server.close();
    }
  });
});
