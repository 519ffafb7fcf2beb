/** decisions 1: the franc zones. Neither currency has a minor unit, so amounts are whole francs. */
const XOF = ['BJ', 'BF', 'CI', 'GW', 'ML', 'NE', 'SN', 'TG'];
const XAF = ['CM', 'CF', 'TD', 'CG', 'GQ', 'GA'];

export type Currency = 'XOF' | 'XAF';

export function currencyForCountry(countryCode: string): Currency | null {
  if (XOF.includes(countryCode)) return 'XOF';
  if (XAF.includes(countryCode)) return 'XAF';
  return null;
}

export interface AmountLimits {
  min: number;
  max: number;
}

export function isAmountInRange(amount: number, limits: AmountLimits): boolean {
  return amount >= limits.min && amount <= limits.max;
}
