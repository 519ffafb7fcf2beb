import { formatAmount, formatCountdown, returnTarget } from './format.js';

const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('formatAmount', () => {
  it('groups by thousands with no-break spaces and shows both francs as F CFA', () => {
    expect(plain(formatAmount(5000n, 'XOF'))).toBe('5 000 F CFA');
    expect(plain(formatAmount(1234567, 'XAF'))).toBe('1 234 567 F CFA');
    expect(plain(formatAmount(100n, 'XOF'))).toBe('100 F CFA');
    expect(formatAmount(5000n, 'XOF')).toBe('5\u00a0000\u00a0F\u00a0CFA');
    expect(formatAmount(5000n, 'XOF')).not.toMatch(/[\u202f ]/);
  });
  it('falls back to the ISO code for another currency', () => {
    expect(plain(formatAmount(10, 'EUR'))).toBe('10 EUR');
  });
});

describe('formatCountdown', () => {
  it.each([
    [0, '00:00'],
    [5, '00:05'],
    [65, '01:05'],
    [299.9, '04:59'],
    [3600, '60:00'],
    [-3, '00:00'],
  ])('%p -> %s', (s, out) => {
    expect(formatCountdown(s)).toBe(out);
  });
});

describe('returnTarget', () => {
  it('adds transaction_id and status, keeping the merchant query', () => {
    const u = new URL(returnTarget('https://shop.example/back?cart=1', 'abc', 'SUCCESS')!);
    expect(u.origin + u.pathname).toBe('https://shop.example/back');
    expect(Object.fromEntries(u.searchParams)).toEqual({ cart: '1', transaction_id: 'abc', status: 'SUCCESS' });
  });
  it('overrides a transaction_id or status the merchant put there', () => {
    const u = new URL(returnTarget('https://shop.example/?status=SUCCESS', 'abc', 'FAILED')!);
    expect(u.searchParams.getAll('status')).toEqual(['FAILED']);
  });
  it('refuses anything but http(s)', () => {
    expect(returnTarget(null, 'a', 'SUCCESS')).toBeNull();
    expect(returnTarget('javascript:alert(1)', 'a', 'SUCCESS')).toBeNull();
    expect(returnTarget('not a url', 'a', 'SUCCESS')).toBeNull();
  });
});
