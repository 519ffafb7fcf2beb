import { currencyForCountry, DomainError, parseMsisdn } from '@mm/domain';
import { invalidField } from '../invalid-field.js';

export interface PayerInput {
  msisdn: string;
  msisdnField: string;
  countryCode?: string;
  currency?: string;
}

export interface ResolvedPayer {
  e164: string;
  countryCode: string;
  currency: string;
}

/**
 * decisions 4: the country comes from the number; a given country must agree with it; the currency
 * comes from the country and a given one must match. `isActive` says whether the service operates there.
 */
export async function resolvePayer(
  input: PayerInput,
  isActive: (country: string) => Promise<boolean>,
): Promise<ResolvedPayer> {
  const parsed = parseMsisdn(input.msisdn);
  if (!parsed)
    throw invalidField(input.msisdnField, 'must be a valid phone number in E.164 format, e.g. +2250707000001');
  if (!parsed.countryCode)
    throw new DomainError('COUNTRY_NOT_SUPPORTED', 'the country cannot be deduced from this number');
  if (input.countryCode && input.countryCode !== parsed.countryCode) {
    throw invalidField('country_code', `does not match ${input.msisdnField} (a ${parsed.countryCode} number)`);
  }
  const countryCode = parsed.countryCode;
  const currency = currencyForCountry(countryCode);
  if (!currency || !(await isActive(countryCode))) {
    throw new DomainError('COUNTRY_NOT_SUPPORTED', `country ${countryCode} is not an active subsidiary`);
  }
  if (input.currency && input.currency !== currency) {
    throw new DomainError('CURRENCY_MISMATCH', `currency of ${countryCode} is ${currency}, not ${input.currency}`);
  }
  return { e164: parsed.e164, countryCode, currency };
}
