/**
 * Who is logged in, and what they may do. `loadStaff` runs on every request: the account is read from
 * the database each time, so disabling or demoting someone takes effect on their very next request.
 * `requireLogin` guards everything but the login routes (app.ts); each area router adds
 * `requirePermission(...)` for its own permission.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Db } from '@mm/db';
import { findStaffById } from '@mm/db/staff';
import { can, type StaffPermission } from '@mm/domain';
import { setStaff, staffOrNull } from '../http/locals.js';
import { forbidden, PageError, regenerateSession } from '@mm/web';

export interface LoadStaffDeps {
  db: Db;
  sessionTtlS: number;
  now(): number;
}

export function loadStaff({ db, sessionTtlS, now }: LoadStaffDeps): RequestHandler {
  return async (req, res, next) => {
    const { staffId, loginAt } = req.session;
    if (!staffId) return next();
    // The cookie's expiry is the browser's business; this bound is the server's, and it also stops a
    // stolen cookie kept alive by activity.
    const expired = loginAt === undefined || now() - loginAt > sessionTtlS * 1000;
    const staff = expired ? null : await findStaffById(db, staffId);
    if (!staff || staff.disabledAt) {
      // Drop the stored session (the Redis key goes) and carry on as an anonymous visitor.
      await regenerateSession(req);
      return next();
    }
    setStaff(res, staff);
    next();
  };
}

function refuseAnonymous(req: Request, res: Response): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const next = req.originalUrl === '/' ? '' : `?next=${encodeURIComponent(req.originalUrl)}`;
    res.redirect(303, `/login${next}`);
    return;
  }
  throw new PageError(401, 'You are not logged in (or your session has ended). Log in again.');
}

/** Any logged-in staff member; anonymous GETs go to the login page, other anonymous requests get 401. */
export const requireLogin: RequestHandler = (req, res, next) => {
  if (!staffOrNull(res)) return refuseAnonymous(req, res);
  next();
};

/** A logged-in staff member whose role has `permission` (packages/domain staff-permissions), else 403. */
export function requirePermission(permission: StaffPermission): RequestHandler {
  return (req, res, next) => {
    const staff = staffOrNull(res);
    if (!staff) return refuseAnonymous(req, res);
    if (!can(staff.role, permission)) throw forbidden();
    next();
  };
}
