import type { Push } from './push-store.js';
import { maskMsisdn, parsePhoneNumber, renderNumberPage, renderPhonePage, resultText } from './phone-page.js';

const push = (overrides: Partial<Push>): Push => ({
  partnerReference: 'tx_1',
  sessionId: 'SES-1',
  msisdn: '+2250700000042',
  amount: 1500,
  currency: 'XOF',
  motif: 'Order 42',
  callbackUrl: 'http://127.0.0.1/cb',
  awaitingCode: false,
  createdAt: new Date(),
  decidedAt: null,
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
    const html = renderPhonePage([
      push({ partnerReference: 'tx_wait' }),
      push({ partnerReference: 'tx_done', state: 'OK' }),
    ]);
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

describe('phone page of one number', () => {
  it('parses E.164 numbers, tolerating spaces and a missing +', () => {
    expect(parsePhoneNumber('+2250707000055')).toBe('+2250707000055');
    expect(parsePhoneNumber(' 2250707000055')).toBe('+2250707000055');
    expect(parsePhoneNumber('+225 07 07 00 00 55')).toBe('+2250707000055');
    expect(parsePhoneNumber('07070000')).toBeNull();
    expect(parsePhoneNumber('abc')).toBeNull();
    expect(parsePhoneNumber('+12')).toBeNull();
  });

  it('shows only the pending prompts of that number, escaped, and refreshes only while none is shown (never over a half-typed code)', () => {
    const html = renderNumberPage(
      [
        push({ partnerReference: 'mine', motif: '<i>x</i>' }),
        push({ partnerReference: 'other', msisdn: '+2250700000043' }),
        push({ partnerReference: 'rejected', sessionId: null, state: 'KO' }),
      ],
      '+2250700000042',
    );
    expect(html).toContain('data-reference="mine"');
    expect(html).not.toContain('other');
    expect(html).not.toContain('rejected');
    expect(html).toContain('&#60;i&#62;x&#60;/i&#62;');
    expect(html).not.toContain('http-equiv="refresh"');
    expect(renderNumberPage([push({ state: 'OK' })], '+2250700000042')).toContain(
      '<meta http-equiv="refresh" content="3">',
    );
  });

  it('words each result of the recent answers', () => {
    expect(resultText(push({ state: 'OK' }))).toBe('Confirmed');
    expect(resultText(push({ state: 'canceled', txn_status: '54321', failure_reason: '00017' }))).toBe(
      'Wrong secret code',
    );
    expect(resultText(push({ state: 'canceled' }))).toBe('Declined');
    expect(resultText(push({ state: 'canceled', txn_status: '54321', failure_reason: '60019' }))).toBe(
      'Cancelled (60019)',
    );
  });
});
