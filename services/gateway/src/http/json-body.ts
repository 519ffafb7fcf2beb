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
  try {
    res.locals.body = JSON.parse(rawBodyOf(req.body).toString('utf8')) as unknown;
  } catch {
    return next(new DomainError('INVALID_JSON', 'request body is not valid JSON'));
  }
  next();
};
