import type { RequestHandler } from 'express';
import { DomainError } from '@mm/domain';
import { rawBodyOf } from './authenticate.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** After authentication (which needs the raw bytes): require JSON and parse it. */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  // A bodiless DELETE (or another method that needs no body) is not a JSON request: let routing answer.
  if (!BODY_METHODS.has(req.method) && rawBodyOf(req.body).length === 0) return next();
  if (!req.is('application/json')) {
    return next(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'));
  }
  let forbiddenKey = false;
  try {
    // joi silently drops "__proto__" keys; an unknown field must be refused, not lost.
    res.locals.body = JSON.parse(rawBodyOf(req.body).toString('utf8'), (key, value: unknown) => {
      if (key === '__proto__') forbiddenKey = true;
      return value;
    }) as unknown;
  } catch {
    return next(new DomainError('INVALID_JSON', 'request body is not valid JSON'));
  }
  if (forbiddenKey) {
    return next(new DomainError('VALIDATION_ERROR', 'the request is not valid', [{ field: '__proto__', issue: 'is not allowed' }]));
  }
  next();
};
