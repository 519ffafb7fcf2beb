import { currencyForCountry, isAmountInRange } from './currency.js';

describe('currency by country (decisions 1)', () => {
  it.each(['BJ', 'BF', 'CI', 'GW', 'ML', 'NE', 'SN', 'TG'])('%s pays in XOF', (c) => {
    expect(currencyForCountry(c)).toBe('XOF');
  });

  it.each(['CM', 'CF', 'TD', 'CG', 'GQ', 'GA'])('%s pays in XAF', (c) => {
    expect(currencyForCountry(c)).toBe('XAF');
  });

  it.each(['FR', 'NG', 'GH', 'ci', '', 'CIV'])('%j has no currency of the franc zones (null)', (c) => {
    expect(currencyForCountry(c)).toBeNull();
  });
});

describe('amount range', () => {
  const limits = { min: 100, max: 5_000_000 };
  it.each([
    [100, true],
    [99, false],
    [5_000_000, true],
    [5_000_001, false],
    [2500, true],
  ])('%d in [100, 5 000 000]: %s', (amount, ok) => {
    expect(isAmountInRange(amount, limits)).toBe(ok);
  });
});
