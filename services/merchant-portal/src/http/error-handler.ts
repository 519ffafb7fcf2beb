import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@mm/observability';
import { forbidden, html, isCsrfError, notFoundError, PageError } from '@mm/web';
import { t } from '../i18n/messages.js';
import { renderPage } from '../views/render.js';
import { localeOfResponse, requestIdOf } from './locals.js';

type Messages = ReturnType<typeof t>;

/** A known error's status and its text in the page's language; null for an unexpected one. */
function known(err: unknown, m: Messages): { status: number; message: string } | null {
  if (err instanceof PageError) {
    // The guards' and routes' generic refusals get the page's language; a route's own message is kept.
    const message =
      err.status === 404 && err.message === notFoundError().message
        ? m.notFound
        : err.status === 403 && err.message === forbidden().message
          ? m.forbidden
          : err.message;
    return { status: err.status, message };
  }
  if (isCsrfError(err)) return { status: 403, message: m.expiredForm };
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return { status: 413, message: m.tooLarge };
  if (
    (typeof type === 'string' && type.startsWith('entity.')) ||
    type === 'encoding.unsupported' ||
    type === 'charset.unsupported'
  ) {
    return { status: 400, message: m.badRequest };
  }
  if (err instanceof URIError) return { status: 404, message: m.notFound };
  return null;
}

export const notFound: RequestHandler = (_req, _res, next) => next(notFoundError());

/** Every error becomes a page in the user's language; unexpected ones are logged and shown without detail. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const m = t(localeOfResponse(res));
    const page = known(err, m);
    if (!page) logger.error({ err, request_id: res.locals.requestId, path: req.path }, 'unhandled error');
    const status = page?.status ?? 500;
    if (res.headersSent) return;
    const title = status === 404 ? m.notFoundTitle : status === 403 ? m.forbiddenTitle : m.errorTitle;
    renderPage(req, res, {
      status,
      title,
      body: html`<h1>${title}</h1><p class="error" id="error-message" role="alert">${page?.message ?? m.internalError}</p>
<p class="muted">${m.requestId}: <code>${requestIdOf(res)}</code></p><p><a href="/">${m.backHome}</a></p>`,
    });
  };
}
