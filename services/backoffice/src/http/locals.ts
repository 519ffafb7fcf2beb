/**
 * Typed access to what the middlewares put on res.locals (Express types it as `any`): the staff
 * member of the request (the CSP nonce and the request id are @mm/web's).
 */
import type { Response } from 'express';
import type { StaffAccount } from '@mm/db/staff';

export function setStaff(res: Response, staff: StaffAccount): void {
  res.locals.staff = staff;
}

export function staffOrNull(res: Response): StaffAccount | null {
  return (res.locals.staff as StaffAccount | undefined) ?? null;
}

/** The logged-in staff member; only behind requireLogin/requirePermission, where one is guaranteed. */
export function currentStaff(res: Response): StaffAccount {
  const staff = staffOrNull(res);
  if (!staff) throw new Error('currentStaff() used on a route without requireLogin or requirePermission');
  return staff;
}

export { nonceOf, requestIdOf } from '@mm/web';
