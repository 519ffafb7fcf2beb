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

/** Unix time in seconds, as the X-Service-Timestamp string. */
export function unixSeconds(nowMs: number): string {
  return String(Math.floor(nowMs / 1000));
}
