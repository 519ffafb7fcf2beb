import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';

/**
 * A strict Content-Security-Policy on every response: no script at all, only the layout's own style
 * (by nonce, fresh per response), forms post to this origin only, no framing (clickjacking of approve
 * buttons). A page that needs more (the Bull dashboard's assets) sets its own header on its router.
 */
export const securityHeaders: RequestHandler = (_req, res, next) => {
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
  });
  next();
};
