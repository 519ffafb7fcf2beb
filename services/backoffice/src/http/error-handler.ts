import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@mm/observability';
import { html, isCsrfError, notFoundError, PageError } from '@mm/web';
import { renderPage } from '../views/render.js';
import { requestIdOf } from './locals.js';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Not logged in',
  403: 'Forbidden',
  404: 'Not found',
  413: 'Too large',
  500: 'Something went wrong',
};

function toPageError(err: unknown): PageError | null {
  if (err instanceof PageError) return err;
  if (isCsrfError(err))
    return new PageError(
      403,
      'This form has expired or did not come from the back-office. Go back, reload the page and try again.',
    );
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return new PageError(413, 'The form sent is too large.');
  if (
    (typeof type === 'string' && type.startsWith('entity.')) ||
    type === 'encoding.unsupported' ||
    type === 'charset.unsupported'
  ) {
    return new PageError(400, 'The form could not be read.');
  }
  if (err instanceof URIError) return notFoundError();
  return null;
}

export const notFound: RequestHandler = (_req, _res, next) => next(notFoundError());

/** Every error becomes an HTML page; unexpected ones are logged and shown without detail. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = toPageError(err);
    if (!known) logger.error({ err, request_id: res.locals.requestId, path: req.path }, 'unhandled error');
    const status = known?.status ?? 500;
    const message = known?.message ?? 'An internal error occurred. It has been logged.';
    if (res.headersSent) return;
    const title = TITLES[status] ?? 'Error';
    renderPage(req, res, {
      status,
      title,
      body: html`<h1>${title}</h1><p class="error" id="error-message" role="alert">${message}</p>
<p class="muted">Request id: <code>${requestIdOf(res)}</code></p><p><a href="/">Back to the home page</a></p>`,
    });
  };
}
