/**
 * Who is signed in, read from the database on every request: a user disabled, demoted, removed or signed
 * out everywhere loses access at the next click, whatever its session still says.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Db } from '@mm/db';
import { findMerchantUserById, type MerchantUserAccount } from '@mm/db/merchant-users';
import { merchantCan, type MerchantPermission } from '@mm/domain';
import { forbidden, PageError } from '@mm/web';
// For its SessionData fields (merchantUserId) only.
import './session.js';

export function setUser(res: Response, user: MerchantUserAccount): void {
  res.locals.merchantUser = user;
}

export function userOrNull(res: Response): MerchantUserAccount | null {
  return (res.locals.merchantUser as MerchantUserAccount | undefined) ?? null;
}

export function currentUser(res: Response): MerchantUserAccount {
  const user = userOrNull(res);
  if (!user) throw new Error('currentUser() used on a route without requireSignIn or requirePermission');
  return user;
}

/** Whether the user may still act on its session: enabled, merchant active, session begun after the last "sign out everywhere". */
export function sessionHolds(
  user: MerchantUserAccount,
  loginAt: number | undefined,
  ttlS: number,
  now: number,
): boolean {
  return (
    user.disabledAt === null &&
    user.merchant.status === 'ACTIVE' &&
    loginAt !== undefined &&
    loginAt >= user.sessionsValidAfter.getTime() &&
    now - loginAt <= ttlS * 1000
  );
}

export function loadUser(deps: { db: Db; sessionTtlS: number; now(): number }): RequestHandler {
  return async (req, res, next) => {
    const { merchantUserId, loginAt } = req.session;
    if (!merchantUserId) return next();
    const user = await findMerchantUserById(deps.db, merchantUserId);
    if (user && sessionHolds(user, loginAt, deps.sessionTtlS, deps.now())) setUser(res, user);
    else delete req.session.merchantUserId;
    next();
  };
}

/** Whether the team requires two-factor sign-in and this user has not turned it on yet. */
export function mustSetUpTwoFactor(user: MerchantUserAccount): boolean {
  return user.merchant.requireTwoFactor && user.totpEnabledAt === null;
}

/** Where a user who must set up two-factor sign-in is sent, with the reason shown there. */
export const TWO_FACTOR_REQUIRED_PATH = '/account?two_factor=required';

/** The pages such a user may still reach (sign-out and the language switch are mounted before the guard). */
const isAccountPath = (path: string) => path === '/account' || path.startsWith('/account/');

export const requireSignIn: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  const user = userOrNull(res);
  if (!user) {
    // A page asked for without a session: back to the sign-in, then here (same-origin path only).
    const back = req.method === 'GET' ? `?next=${encodeURIComponent(req.originalUrl)}` : '';
    return res.redirect(303, `/login${back}`);
  }
  // Here and not in each router: a page added later is covered without knowing about the setting.
  if (mustSetUpTwoFactor(user) && !isAccountPath(req.path)) return res.redirect(303, TWO_FACTOR_REQUIRED_PATH);
  next();
};

/**
 * 404 rather than 403 would hide that the page exists; the role table is public, so 403 says the truth.
 * `null`: any signed-in user (their own account), as a RouteRule with `permission: null` says.
 */
export function requirePermission(permission: MerchantPermission | null): RequestHandler {
  return (_req, res, next) => {
    const user = userOrNull(res);
    if (!user) throw new PageError(401, 'not signed in');
    if (permission !== null && !merchantCan(user.role, permission)) throw forbidden();
    next();
  };
}
