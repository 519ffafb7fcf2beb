/**
 * Two-factor codes (RFC 6238 TOTP: 6 digits, 30 s steps, SHA-1, what every authenticator app reads),
 * by otpauth. A code is accepted one step either side of now, for a phone's clock a little off; the step it
 * matched is returned, so the caller can refuse the same code a second time within its window.
 */
import { Secret, TOTP } from 'otpauth';

const PERIOD_S = 30;

function totpOf(base32Secret: string, label = '', issuer = 'Mobile money'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(base32Secret),
  });
}

/** A new secret of 160 bits (RFC 4226's recommended length), in base 32 as apps take it typed. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app scans (shown as a QR code) to add the account. */
export function totpUri(base32Secret: string, account: string, issuer: string): string {
  return totpOf(base32Secret, account, issuer).toString();
}

/** The code for `at` (tests, and the development sign-in helper). */
export function totpCode(base32Secret: string, at: number): string {
  return totpOf(base32Secret).generate({ timestamp: at });
}

/** The time step the code belongs to, or null when it is not the code of now, the step before or after. */
export function matchTotp(base32Secret: string, code: string, at: number): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(base32Secret).validate({ token, timestamp: at, window: 1 });
  return delta === null ? null : Math.floor(at / 1000 / PERIOD_S) + delta;
}
