import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

export interface ParsedMsisdn {
  e164: string;
  countryCode: string | null;
}

/** Accepts only a valid E.164 number ("+" and country calling code); null otherwise. */
export function parseMsisdn(raw: string): ParsedMsisdn | null {
  if (!/^\+[1-9]\d{6,14}$/.test(raw)) return null;
  const phone = parsePhoneNumberFromString(raw);
  if (!phone || !phone.isValid()) return null;
  return { e164: phone.number, countryCode: phone.country ?? null };
}

/** "+2250707000001" -> "+22507******01": enough to recognise a number, not to call it. */
export function maskMsisdn(e164: string): string {
  if (e164.length <= 7) return '*'.repeat(e164.length);
  return e164.slice(0, 6) + '*'.repeat(e164.length - 8) + e164.slice(-2);
}

/** "+225" for CI: the prefix a customer's number starts with in that country. */
export function callingCodeOf(countryCode: string): string {
  return `+${getCountryCallingCode(countryCode as CountryCode)}`;
}

/**
 * A number as a customer types it on a page of their country: spaces, dots, dashes and brackets
 * dropped; "00" read as "+"; without either, the country's prefix put in front ("0707000001" in CI).
 */
export function typedMsisdn(typed: string, countryCode: string): string {
  const compact = typed.replace(/[\s().-]/g, '');
  if (compact.startsWith('+')) return compact;
  if (compact.startsWith('00')) return `+${compact.slice(2)}`;
  return compact === '' ? '' : `${callingCodeOf(countryCode)}${compact}`;
}
