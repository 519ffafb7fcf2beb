import { randomBytes } from 'node:crypto';

/** A fresh CSP nonce per response (128 bits, base64). */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * Headers of every payment-page response (HTML and JSON): nothing loads but the page's own nonce'd
 * style and script, it only talks to its own origin, it cannot be framed and sends no referrer. No
 * form may be submitted, except on a page asking for a one-time code (`postsForms`): its own form,
 * to its own origin only.
 */
export function securityHeaders(nonce: string, postsForms = false): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      'img-src data:',
      "base-uri 'none'",
      postsForms ? "form-action 'self'" : "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
}
