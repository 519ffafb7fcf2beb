import type { Request, Response } from 'express';
import { csrfToken, type SafeHtml } from '@mm/web';
import { userOrNull } from '../auth/guard.js';
import { localeOfResponse, nonceOf } from '../http/locals.js';
import { layout } from './layout.js';

export interface Page {
  title: string;
  body: SafeHtml;
  status?: number;
}

/** Sends `body` inside the layout, in the request's language, with the header's forms and their token. */
export function renderPage(req: Request, res: Response, page: Page): void {
  // No token without a session (an error before the session middleware ran).
  const token = req.session ? csrfToken(req) : null;
  const path = req.originalUrl.split('?')[0] ?? '/';
  res
    .status(page.status ?? 200)
    .type('html')
    .send(
      layout({
        locale: localeOfResponse(res),
        title: page.title,
        body: page.body,
        user: userOrNull(res),
        csrfToken: token,
        nonce: nonceOf(res),
        path,
        back: req.method === 'GET' ? req.originalUrl : path,
      }).value,
    );
}
