import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { isDatabaseUnavailable } from '@mm/db';
import { DomainError, ERROR_STATUS } from '@mm/domain';
import type { Logger } from '@mm/observability';
import { isRedisUnavailable } from '@mm/queues';
import { requestIdOf } from './request-context.js';

/** Body-parser errors carry a `type`; they become the documented codes. */
function fromBodyParser(err: { type?: string }): DomainError | null {
  if (err.type === 'entity.too.large') return new DomainError('PAYLOAD_TOO_LARGE', 'request body exceeds 64 KiB');
  // A form with more fields than the route reads (the payment page's code form has one).
  if (err.type === 'parameters.too.many')
    return new DomainError('PAYLOAD_TOO_LARGE', 'request body has too many fields');
  if (
    err.type === 'entity.verify.failed' ||
    err.type === 'encoding.unsupported' ||
    err.type === 'charset.unsupported'
  ) {
    return new DomainError('VALIDATION_ERROR', 'request body encoding is not supported');
  }
  return null;
}

/** Express could not percent-decode a path parameter ("/payments/%E0%A4%A") while matching a route. */
function isParamDecodeError(err: unknown): boolean {
  return err instanceof URIError && /^Failed to decode param/.test(err.message);
}

/** A path parameter that does not percent-decode: no such id. */
function fromRouter(err: unknown): DomainError | null {
  return isParamDecodeError(err) ? new DomainError('NOT_FOUND', 'no such resource') : null;
}

/**
 * Right after a route mounted ahead of the router that used to answer its path: a parameter of that
 * route that does not percent-decode fails its match before any of its handlers ran. The router used
 * to run `guard` (authentication, rate limit) before its own match failed the same way, so this runs
 * `guard` and then passes the same error on: the request is answered exactly as it was (401 unsigned,
 * 429 over the limit, else 404 "no such resource" with the RateLimit headers). Any other error goes on.
 */
export function guardThenRefuseUndecodable(guard: RequestHandler[]): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (!isParamDecodeError(err)) return next(err);
    let i = 0;
    const step = (guardErr?: unknown): void => {
      if (guardErr) return next(guardErr);
      const handler = guard[i++];
      if (!handler) return next(err);
      // As Express runs a handler: a throw or a rejected promise is an error passed on.
      try {
        const ret = handler(req, res, step) as unknown;
        if (ret instanceof Promise) ret.catch((e: unknown) => step(e ?? new Error('rejected without a reason')));
      } catch (e) {
        step(e);
      }
    };
    step();
  };
}

/** SERVICE_UNAVAILABLE's Retry-After when the app is not told otherwise. */
const DEFAULT_UNAVAILABLE_RETRY_AFTER_S = 2;

/**
 * The database or Redis could not do the request's work now (down, restarting, out of connections, a
 * lock or a statement out of time): the request is worth sending again later, not an internal error.
 */
function fromDependencies(err: unknown, retryAfterS: number): DomainError | null {
  if (isDatabaseUnavailable(err))
    return new DomainError('SERVICE_UNAVAILABLE', 'the database is unavailable; retry later', undefined, retryAfterS);
  if (isRedisUnavailable(err))
    return new DomainError(
      'SERVICE_UNAVAILABLE',
      'a service dependency is unavailable; retry later',
      undefined,
      retryAfterS,
    );
  return null;
}

export interface ErrorHandlerOptions {
  /** Retry-After of a 503 SERVICE_UNAVAILABLE (SERVICE_UNAVAILABLE_RETRY_AFTER_S). */
  unavailableRetryAfterS?: number;
  /** Hears each database failure answered 503 (the gateway's DatabaseOutage); Redis's are not told. */
  onDatabaseUnavailable?(err: unknown): void;
  /**
   * Writes the answer once the error is classified (status, Retry-After set): the API's JSON envelope by
   * default; a customer's page answers HTML instead (routes/link-page.ts).
   */
  respond?(req: Request, res: Response, error: DomainError): void;
}

export function errorHandler(logger: Logger, options: ErrorHandlerOptions = {}): ErrorRequestHandler {
  const retryAfterS = options.unavailableRetryAfterS ?? DEFAULT_UNAVAILABLE_RETRY_AFTER_S;
  return (err, req, res, _next) => {
    const unavailable = err instanceof DomainError ? null : fromDependencies(err, retryAfterS);
    const known =
      err instanceof DomainError ? err : (fromBodyParser(err as { type?: string }) ?? fromRouter(err) ?? unavailable);
    const error = known ?? new DomainError('INTERNAL_ERROR', 'an internal error occurred');
    // Logged with its cause, as a warning: one line per refused request while a dependency is down.
    if (unavailable) {
      logger.warn({ err, request_id: requestIdOf(res), path: req.path }, 'dependency unavailable; answered 503');
      if (isDatabaseUnavailable(err)) options.onDatabaseUnavailable?.(err);
    } else if (!known) logger.error({ err, request_id: requestIdOf(res), path: req.path }, 'unhandled error');
    if (error.retryAfterS !== undefined) res.setHeader('Retry-After', String(error.retryAfterS));
    res.status(ERROR_STATUS[error.code]);
    if (options.respond) return options.respond(req, res, error);
    res.json({
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
