import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DomainError, ERROR_STATUS } from '@mm/domain';
import type { Logger } from '@mm/observability';
import { requestIdOf } from './request-context.js';

/** Body-parser errors carry a `type`; they become the documented codes. */
function fromBodyParser(err: { type?: string }): DomainError | null {
  if (err.type === 'entity.too.large') return new DomainError('PAYLOAD_TOO_LARGE', 'request body exceeds 64 KiB');
  // A form with more fields than the route reads (the payment page's code form has one).
  if (err.type === 'parameters.too.many') return new DomainError('PAYLOAD_TOO_LARGE', 'request body has too many fields');
  if (err.type === 'entity.verify.failed' || err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') {
    return new DomainError('VALIDATION_ERROR', 'request body encoding is not supported');
  }
  return null;
}

/** Express could not percent-decode a path parameter ("/payments/%E0%A4%A"): no such id. */
function fromRouter(err: unknown): DomainError | null {
  return err instanceof URIError && /^Failed to decode param/.test(err.message) ? new DomainError('NOT_FOUND', 'no such resource') : null;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = err instanceof DomainError ? err : fromBodyParser(err as { type?: string }) ?? fromRouter(err);
    const error = known ?? new DomainError('INTERNAL_ERROR', 'an internal error occurred');
    if (!known) logger.error({ err, request_id: requestIdOf(res), path: req.path }, 'unhandled error');
    if (error.retryAfterS !== undefined) res.setHeader('Retry-After', String(error.retryAfterS));
    res.status(ERROR_STATUS[error.code]).json({
      error: {
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        request_id: requestIdOf(res),
      },
    });
  };
}

export const notFound: RequestHandler = (_req, _res, next) => {
  next(new DomainError('NOT_FOUND', 'no such endpoint'));
};
