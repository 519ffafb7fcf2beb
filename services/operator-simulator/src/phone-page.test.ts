import type { Push } from './push-store.js';
import { maskMsisdn, renderPhonePage } from './phone-page.js';

const push = (overrides: Partial<Push>): Push => ({
  partnerReference: 'tx_1',
  sessionId: 'SES-1',
  msisdn: '+2250700000042',
  amount: 1500,
  currency: 'XOF',
  motif: 'Order 42',
  callbackUrl: 'http://127.0.0.1/cb',
  createdAt: new Date(),
  lastCallback: null,
  state: 'PENDING',
  txn_status: null,
  provider_tx_id: null,
  failure_reason: null,
  ...overrides,
});

describe('phone page', () => {
  it('masks the number but keeps the country prefix and the two scenario digits', () => {
    expect(maskMsisdn('+2250700000042')).toBe('+225********42');
    expect(maskMsisdn('12345')).toBe('12345');
  });

  it('shows only PENDING pushes', () => {
    const html = renderPhonePage([push({ partnerReference: 'tx_wait' }), push({ partnerReference: 'tx_done', state: 'OK' })]);
    expect(html).toContain('tx_wait');
    expect(html).not.toContain('tx_done');
  });

  it('escapes what the merchant and caller control, in text and in form actions', () => {
    const html = renderPhonePage([push({ partnerReference: 'a"b<c>', motif: '<script>alert(1)</script>' })]);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;');
    expect(html).toContain('action="/sandbox/payments/a%22b%3Cc%3E/confirm?then=phone"');
  });

  it('says so when nothing is waiting', () => {
    expect(renderPhonePage([])).toContain('No payment request waiting.');
  });
});
