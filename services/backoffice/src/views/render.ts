import type { Request, Response } from 'express';
import { csrfToken, type SafeHtml } from '@mm/web';
import { nonceOf, staffOrNull } from '../http/locals.js';
import { layout } from './layout.js';

export interface Page {
  title: string;
  body: SafeHtml;
  status?: number;
}

/** Sends `body` inside the layout (nav for the staff member's role, logout form with its CSRF token). */
export function renderPage(req: Request, res: Response, page: Page): void {
  const staff = staffOrNull(res);
  // No token without a session (an error before the session middleware ran).
  const token = staff && req.session ? csrfToken(req) : null;
  const path = req.originalUrl.split('?')[0] ?? '/';
  res
    .status(page.status ?? 200)
    .type('html')
    .send(layout({ title: page.title, body: page.body, staff, csrfToken: token, nonce: nonceOf(res), path }).value);
}
