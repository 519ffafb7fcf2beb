// The signing rule of the interface, both ways (requests, webhooks, operator callbacks): the service
// itself uses these through @mm/domain, so the SDK and the service cannot sign differently.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256, keyed with the API secret, of the timestamp string followed by the exact body bytes. */
export function sign(secret: string, timestamp: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(timestamp).update(body).digest('hex');
}

/** Constant-time comparison of a received signature with the one computed over the bytes received. */
export function signatureMatches(secret: string, timestamp: string, body: string | Uint8Array, signature: string): boolean {
  const expected = Buffer.from(sign(secret, timestamp, body), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** |now - timestamp| <= tolerance, the timestamp a decimal string of Unix seconds; the clock is passed in. */
export function timestampWithinTolerance(timestamp: string, nowMs: number, toleranceS: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) <= toleranceS;
}

/** Unix time in seconds, as the X-Service-Timestamp string. */
export function unixSeconds(nowMs: number): string {
  return String(Math.floor(nowMs / 1000));
}
