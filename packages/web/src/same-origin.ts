import type { RequestHandler } from 'express';
import { PageError } from './page-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * For JSON APIs that cannot carry our form's CSRF token (the Bull dashboard's own actions): a request
 * that changes something must come from a page of this very origin. Browsers send Sec-Fetch-Site on
 * every request and scripts cannot set it, so when present it decides; older browsers fall back to
 * Origin, which they send on every cross-origin and every non-GET fetch. Neither: refused, since a
 * browser always sends one of them, and a non-browser caller does not have a session anyway.
 * The session cookie's SameSite=Lax already stops cross-site requests; this also stops a sibling site
 * (same-site, other origin), which Lax lets through.
 */
export function requireSameOrigin(refusal: string): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const sameOrigin = site !== undefined ? site === 'same-origin' : origin === `${req.protocol}://${req.get('host')}`;
    if (!sameOrigin) throw new PageError(403, refusal);
    next();
  };
}
