import type { Request, RequestHandler } from 'express';
import { csrfSync } from 'csrf-sync';

/**
 * Synchronizer token pattern: one token per session, stored in the session, sent back by every POST form
 * in the hidden field `_csrf`. A POST without it (or with another one) is refused with 403 before any
 * route runs, so nothing changes.
 */
const csrf = csrfSync({
  getTokenFromRequest: (req) => {
    const token = (req.body as Record<string, unknown> | undefined)?._csrf;
    return typeof token === 'string' ? token : undefined;
  },
  size: 32,
});

/**
 * The check for every POST of an app. `multipartPosts` are the POST routes whose form is multipart (a
 * file upload, such as the back-office's statement import). Their body is not read before the routes
 * (only urlencoded bodies are), so their token cannot be checked here: this check lets their multipart
 * POSTs through, and the route checks the token itself with `csrfAfterUpload`, as soon as its own
 * parser has read the form, after the login and permission checks and before its handler. Full paths,
 * exactly as the form posts them; any other spelling (or any other multipart POST) is checked here,
 * where its unread token is missing, and refused.
 */
export function csrfProtection(multipartPosts: ReadonlySet<string> = new Set()): RequestHandler {
  const checkedByItsRoute = (req: Request) =>
    req.method === 'POST' && multipartPosts.has(req.path) && req.is('multipart/form-data') === 'multipart/form-data';
  return (req, res, next) => {
    if (checkedByItsRoute(req)) return next();
    csrf.csrfSynchronisedProtection(req, res, next);
  };
}

/** The same check, for a multipart form once its parser has put its fields (`_csrf`) in req.body. */
export const csrfAfterUpload: RequestHandler = (req, res, next) => {
  csrf.csrfSynchronisedProtection(req, res, next);
};

/** The session's token (created on first use): put it in every form as `<input type="hidden" name="_csrf">`. */
export function csrfToken(req: Request): string {
  return csrf.generateToken(req);
}

export function isCsrfError(err: unknown): boolean {
  return (
    err === csrf.invalidCsrfTokenError ||
    (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EBADCSRFTOKEN')
  );
}
