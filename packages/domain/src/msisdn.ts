import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

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
