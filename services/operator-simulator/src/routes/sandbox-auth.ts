import { createHmac } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { renderPhoneLocked } from '../phone-page.js';
import { sameSecret } from './same-secret.js';

/** The browser's proof of the sandbox token, set by opening a page with `?token=`. */
export const SANDBOX_COOKIE = 'mm_sim_sandbox';

/**
 * Guards the sandbox (test hooks, faults) and the virtual phone: whoever can answer a customer's push or
 * switch the operator's faults decides payments. Scripts send `Authorization: Bearer <SIM_SANDBOX_TOKEN>`.
 * A browser opens the link `pnpm start` prints, `/phone?token=<token>`: the token becomes an HttpOnly,
 * SameSite=Strict cookie and the page is reloaded without it (out of the address bar, history and
 * Referer), so the phone's own forms post with the cookie, and no other site's page can post for it.
 */
export function sandboxAuth(token: string): RequestHandler {
  // The cookie holds a value derived from the token, not the token: a cookie read off a browser's disk is
  // not a bearer token for scripts.
  const cookieValue = createHmac('sha256', token).update(SANDBOX_COOKIE).digest('base64url');
  return (req, res, next) => {
    const offered = req.query.token;
    if (req.method === 'GET' && typeof offered === 'string') {
      if (!sameSecret(offered, token)) {
        refuse(req, res);
        return;
      }
      res.cookie(SANDBOX_COOKIE, cookieValue, { httpOnly: true, sameSite: 'strict', path: '/' });
      const target = new URL(req.originalUrl, 'http://sandbox.invalid');
      target.searchParams.delete('token');
      res.redirect(303, `${target.pathname}${target.search}`);
      return;
    }
    if (
      sameSecret(req.get('authorization') ?? '', `Bearer ${token}`) ||
      sameSecret(cookieOf(req, SANDBOX_COOKIE) ?? '', cookieValue)
    ) {
      next();
      return;
    }
    refuse(req, res);
  };
}

function refuse(req: Request, res: Parameters<RequestHandler>[1]): void {
  if (req.method === 'GET' && req.accepts(['json', 'html']) === 'html') {
    res.status(401).type('html').send(renderPhoneLocked());
    return;
  }
  res.status(401).json({ error: 'unauthorized' });
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
