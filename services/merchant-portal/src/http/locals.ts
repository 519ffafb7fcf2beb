/** Typed access to what the portal's middlewares put on res.locals (Express types it as `any`). */
import type { Request, Response } from 'express';
import { requestIdOf } from '@mm/web';
import type { Locale } from '../i18n/locale.js';

export function setLocale(res: Response, locale: Locale): void {
  res.locals.locale = locale;
}

/** The page's language; French before the locale middleware ran (an error that early). */
export function localeOfResponse(res: Response): Locale {
  return (res.locals.locale as Locale | undefined) ?? 'fr';
}

/** For the audit log: the request id and the client address (the proxy's X-Forwarded-For with TRUST_PROXY). */
export function requestContext(req: Request, res: Response): { requestId: string; ip?: string } {
  return { requestId: requestIdOf(res), ...(req.ip ? { ip: req.ip } : {}) };
}

export { nonceOf, requestIdOf } from '@mm/web';
