import { signatureMatches, signPayload } from '@mm/domain';
import type { Row } from './support/report.js';

/** CPU cost of the HMAC check every API request and webhook pays, on a typical cash-in body. */
export function signatureVerification(): Row[] {
  const body = JSON.stringify({
    merchant_order_id: 'order-123456',
    amount: 5000,
    customer_msisdn: '+2250707000001',
    metadata: { cart: 'x'.repeat(200) },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = signPayload('sk_'.padEnd(67, 'a'), ts, body);
  const iterations = 200_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) signatureMatches('sk_'.padEnd(67, 'a'), ts, body, sig);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return [
    {
      what: 'HMAC signature check (one core, in process)',
      rate: `${Math.round(iterations / (ms / 1000))} /s`,
      latency: `${((ms * 1000) / iterations).toFixed(2)} µs each`,
      ratio: '',
      target: '',
      notes: `${body.length}-byte body`,
    },
  ];
}
