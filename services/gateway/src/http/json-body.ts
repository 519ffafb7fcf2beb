import type { RequestHandler } from 'express';
import { DomainError } from '@mm/domain';
import { rawBodyOf } from './authenticate.js';
import { setJsonBody } from './request-context.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** After authentication (which needs the raw bytes): require JSON and parse it. */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  // A bodiless DELETE (or another method that needs no body) is not a JSON request: let routing answer.
  if (!BODY_METHODS.has(req.method) && rawBodyOf(req.body).length === 0) return next();
  if (!req.is('application/json')) {
    return next(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'));
  }
  // The first field refused while parsing: JSON allows it, but it must not reach validation or storage.
  let refused: { field: string; issue: string } | null = null;
  try {
    // Invalid UTF-8 is invalid JSON (RFC 8259), not text to repair with U+FFFD behind the merchant's back.
    const text = UTF8.decode(rawBodyOf(req.body));
    setJsonBody(
      res,
      JSON.parse(text, (key, value: unknown) => {
        // joi silently drops "__proto__" keys; an unknown field must be refused, not lost.
        if (key === '__proto__') refused ??= { field: key, issue: 'is not allowed' };
        if (!isStorableText(key) || (typeof value === 'string' && !isStorableText(value))) {
          refused ??= { field: key || '(body)', issue: 'must not contain NUL or unpaired surrogate characters' };
        }
        return value;
      }),
    );
  } catch {
    return next(new DomainError('INVALID_JSON', 'request body is not valid JSON'));
  }
  if (refused) return next(new DomainError('VALIDATION_ERROR', 'the request is not valid', [refused]));
  next();
};

// ignoreBOM: a byte order mark stays in the text, where JSON.parse refuses it as before.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * PostgreSQL text and jsonb cannot hold NUL, and "\ud800"-style lone surrogates are no text at all:
 * JSON lets both through, the database then failed with a 500.
 */
export function isStorableText(s: string): boolean {
  // With the u flag a surrogate pair is one code point, so \p{Cs} matches only a lone surrogate.
  return !/[\u0000\p{Cs}]/u.test(s);
}
