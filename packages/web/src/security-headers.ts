import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';

/**
 * One year, subdomains included: browsers that once reached us over HTTPS refuse plain HTTP to this host
 * (and its subdomains) afterwards, so a network attacker cannot downgrade a staff member's next visit
 * and read the session cookie. No `preload`: that is a commitment for the whole domain, not ours to make.
 */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

export interface SecurityHeaderOptions {
  /** Send Strict-Transport-Security (HSTS setting; browsers ignore it on plain-HTTP answers anyway). */
  hsts: boolean;
}

/**
 * A strict Content-Security-Policy on every response: no script at all, only the layout's own style
 * (by nonce, fresh per response), forms post to this origin only, no framing (clickjacking of approve
 * buttons). A page that needs more (the Bull dashboard's assets) sets its own header on its router.
 */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  return (_req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    res.locals.cspNonce = nonce;
    res.set({
      'Content-Security-Policy': [
        "default-src 'none'",
        `style-src 'nonce-${nonce}'`,
        "img-src 'self' data:",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cross-Origin-Opener-Policy': 'same-origin',
      // Staff pages show customer data: no shared or back-button cache.
      'Cache-Control': 'no-store',
      ...(options.hsts ? { 'Strict-Transport-Security': HSTS_VALUE } : {}),
    });
    next();
  };
}
