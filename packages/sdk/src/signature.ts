// The signing rule of the interface, both ways (requests, webhooks, operator callbacks): the service
// itself uses these through @mm/domain, so the SDK and the service cannot sign differently.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256, keyed with the API secret, of the timestamp string followed by the exact body bytes. */
export function sign(secret: string, timestamp: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(timestamp).update(body).digest('hex');
}

/** Constant-time comparison of a received signature with the one computed over the bytes received. */
export function signatureMatches(
  secret: string,
  timestamp: string,
  body: string | Uint8Array,
  signature: string,
): boolean {
  return sameHex(sign(secret, timestamp, body), signature);
}

function sameHex(expected: string, signature: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(signature, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The optional header that binds a request's signature to its method and target. X-Service-Signature
 * covers only the timestamp and the body, so a GET's signature (of an empty body) is valid for every GET
 * of that key during the whole tolerance window; this one is not.
 */
export const REQUEST_SIGNATURE_HEADER = 'X-Service-Request-Signature';

/**
 * What X-Service-Request-Signature signs: the timestamp string (X-Service-Timestamp as sent), LF, the
 * method in capitals, LF, the request target as sent on the request line (the path from the server's
 * root, /api/v1 included, then `?` and the query string exactly as sent if there is one; no scheme, host
 * or fragment; percent-encoding left as it is), LF, then the exact body bytes (none for a GET).
 */
export function requestSigningText(timestamp: string, method: string, target: string): string {
  return `${timestamp}\n${method}\n${target}\n`;
}

/** Lowercase hex HMAC-SHA256, keyed with the API secret, of requestSigningText() followed by the exact body bytes. */
export function signRequest(
  secret: string,
  timestamp: string,
  method: string,
  target: string,
  body: string | Uint8Array,
): string {
  return createHmac('sha256', secret)
    .update(requestSigningText(timestamp, method, target))
    .update(body)
    .digest('hex');
}

/** Constant-time check of a received X-Service-Request-Signature against the request as received. */
export function requestSignatureMatches(
  secret: string,
  timestamp: string,
  method: string,
  target: string,
  body: string | Uint8Array,
  signature: string,
): boolean {
  return sameHex(signRequest(secret, timestamp, method, target, body), signature);
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
