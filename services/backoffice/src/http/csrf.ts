import type { Request } from 'express';
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

export const csrfProtection = csrf.csrfSynchronisedProtection;

/** The session's token (created on first use): put it in every form as `<input type="hidden" name="_csrf">`. */
export function csrfToken(req: Request): string {
  return csrf.generateToken(req);
}

export function isCsrfError(err: unknown): boolean {
  return err === csrf.invalidCsrfTokenError || (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EBADCSRFTOKEN');
}
