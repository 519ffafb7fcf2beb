import type { Request, Response } from 'express';
import type { AuditContext } from '@mm/collections';
import { currentStaff, requestIdOf } from '../http/locals.js';

/** The audit context of a logged-in request (behind requireLogin or requirePermission). */
export function auditContext(req: Request, res: Response): AuditContext {
  const staff = currentStaff(res);
  return { staffId: staff.id, actor: staff.email, ...requestContext(req, res) };
}

/** For requests with nobody logged in yet (login attempts). */
export function requestContext(req: Request, res: Response): { requestId: string; ip?: string } {
  return { requestId: requestIdOf(res), ...(req.ip ? { ip: req.ip } : {}) };
}
