import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256 over the timestamp string followed by the exact body bytes. */
export function signPayload(secret: string, timestamp: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(timestamp).update(body).digest('hex');
}

export function signatureMatches(secret: string, timestamp: string, body: Buffer | string, signature: string): boolean {
  const expected = Buffer.from(signPayload(secret, timestamp, body), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** |now - timestamp| <= tolerance; the clock is passed in so tolerance is testable without waiting. */
export function timestampWithinTolerance(timestamp: string, nowMs: number, toleranceS: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) <= toleranceS;
}
