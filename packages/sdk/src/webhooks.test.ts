import { createHmac } from 'node:crypto';
import { WebhookVerificationError } from './errors.js';
import { verifyWebhook } from './webhooks.js';

const SECRET = 'sk_test_0123456789abcdef';
const NOW_MS = 1_790_000_000_000;
const body = JSON.stringify({
  event: 'transaction.status_changed',
  event_id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  transaction_id: '6f1c2a9e-4b7d-4c3a-8e6f-0b1d2c3e4f50',
  merchant_order_id: 'order-1',
  type: 'CASHIN',
  status: 'SUCCESS',
  amount: 5000,
  currency: 'XOF',
  country_code: 'CI',
  provider_tx_id: 'OP-1',
  timestamp: '2026-09-21T10:13:20.000+00:00',
});
// Computed independently of the SDK's own signing, as the interface states the rule.
const signed = (text: string, ts: number, secret = SECRET) => ({
  'x-service-timestamp': String(ts),
  'x-service-signature': createHmac('sha256', secret).update(`${ts}${text}`).digest('hex'),
});
const nowS = NOW_MS / 1000;
const verify = (headers: Record<string, string>, text = body, secret: string | string[] = SECRET) =>
  verifyWebhook(text, headers, secret, { now: () => NOW_MS });
const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as WebhookVerificationError).reason;
  }
  throw new Error('expected the webhook to be refused');
};

describe('verifyWebhook', () => {
  it('returns the event of a webhook signed over its timestamp and raw body, from fetch Headers or node headers, string or bytes', () => {
    expect(verify(signed(body, nowS))).toMatchObject({
      event: 'transaction.status_changed',
      status: 'SUCCESS',
      amount: 5000,
    });
    expect(
      verifyWebhook(Buffer.from(body), new Headers(signed(body, nowS)), SECRET, { now: () => NOW_MS }).event_id,
    ).toBe('1b4e28ba-2fa1-41d2-883f-0016d3cca427');
    expect(
      verify({ 'X-Service-Timestamp': String(nowS), 'X-Service-Signature': signed(body, nowS)['x-service-signature'] })
        .event,
    ).toBe('transaction.status_changed');
  });

  it('accepts 300 s of clock difference either way and refuses 301', () => {
    expect(verify(signed(body, nowS - 300)).amount).toBe(5000);
    expect(verify(signed(body, nowS + 300)).amount).toBe(5000);
    expect(reason(() => verify(signed(body, nowS - 301)))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(reason(() => verify(signed(body, nowS + 301)))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(verifyWebhook(body, signed(body, nowS - 500), SECRET, { now: () => NOW_MS, toleranceS: 600 }).amount).toBe(
      5000,
    );
  });

  it('refuses another secret, a changed body or timestamp, and missing headers', () => {
    expect(reason(() => verify(signed(body, nowS, 'sk_other')))).toBe('INVALID_SIGNATURE');
    expect(reason(() => verify(signed(body, nowS), body.replace('5000', '9000')))).toBe('INVALID_SIGNATURE');
    expect(reason(() => verify({ ...signed(body, nowS), 'x-service-timestamp': String(nowS - 1) }))).toBe(
      'INVALID_SIGNATURE',
    );
    expect(reason(() => verify({ 'x-service-timestamp': String(nowS) }))).toBe('MISSING_HEADER');
  });

  it('takes several secrets while keys are rotated', () => {
    expect(verify(signed(body, nowS, 'sk_new'), body, ['sk_old', 'sk_new']).status).toBe('SUCCESS');
    expect(reason(() => verify(signed(body, nowS, 'sk_gone'), body, ['sk_old', 'sk_new']))).toBe('INVALID_SIGNATURE');
  });

  it('refuses a correctly signed body that is not an event, or whose X-Service-Event-Id differs', () => {
    expect(reason(() => verify(signed('not json', nowS), 'not json'))).toBe('INVALID_PAYLOAD');
    expect(reason(() => verify(signed('{"event":"other"}', nowS), '{"event":"other"}'))).toBe('INVALID_PAYLOAD');
    expect(reason(() => verify({ ...signed(body, nowS), 'x-service-event-id': 'another' }))).toBe('INVALID_PAYLOAD');
  });

  it('tells a genuine event of a type it does not know (a newer API) apart from a refused one: UNKNOWN_EVENT, answered 2xx', () => {
    const newer = JSON.stringify({ event: 'payout.status_changed', event_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7' });
    expect(reason(() => verify(signed(newer, nowS), newer))).toBe('UNKNOWN_EVENT');
    expect(reason(() => verify(signed(newer, nowS, 'sk_other'), newer))).toBe('INVALID_SIGNATURE');
  });
});
