/**
 * Who among the back-office staff may do what. The back-office checks `can()` on the server for every
 * route; the navigation only hides what a role cannot use.
 *
 * | permission             | viewer | approver | admin |
 * |------------------------|:------:|:--------:|:-----:|
 * | transactions:read      |   x    |    x     |   x   |
 * | webhooks:read          |   x    |    x     |   x   |
 * | cashouts:read          |   x    |    x     |   x   |
 * | merchants:read         |   x    |    x     |   x   |
 * | jobs:read              |   x    |    x     |   x   |
 * | reconciliation:read    |   x    |    x     |   x   |
 * | webhooks:resend        |        |    x     |   x   |
 * | cashouts:decide        |        |    x     |   x   |
 * | reconciliation:resolve |        |    x     |   x   |
 * | merchants:manage       |        |          |   x   |
 * | keys:manage            |        |          |   x   |
 * | subsidiaries:manage    |        |          |   x   |
 * | operators:manage       |        |          |   x   |
 * | audit:read             |        |          |   x   |
 * | jobs:rerun             |        |          |   x   |
 * | queues:dashboard       |        |          |   x   |
 * | staff:manage           |        |          |   x   |
 *
 * The audit log is admin-only although it is a "read": it tells who did what, which is itself a
 * staff-management matter.
 *
 * Operator accounts are seen with merchants:read, like subsidiaries (every role; never their
 * credentials); changing them (operators:manage) is admin-only: it decides where money goes.
 *
 * Parked jobs (jobs:read) are seen by every role: support needs to know a payment is stuck because its
 * job is parked. Running one again (jobs:rerun) is admin-only: it is the Bull dashboard's "retry"
 * (queues:dashboard, admin) through another door, and the failure that parked the job was not
 * understood by anyone, so deciding that it is safe to run again needs the job's stack trace and
 * attempts, which only the dashboard shows. Approvers re-send webhooks because that failure is known
 * (the merchant's endpoint) and so is the effect of a retry.
 *
 * Reconciliation with the operators (reconciliation:read) is seen by every role: support answering a
 * merchant needs to know a payment is in a case. Acting on it (reconciliation:resolve: accept the
 * operator's side, write off, re-query a day, import an operator's statement) is for approvers and admins,
 * like deciding a cash-out: accepting and writing off post to the ledger, and an import replaces what the
 * operator is taken to have said.
 */

export const STAFF_ROLES = ['admin', 'approver', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_PERMISSIONS = [
  'transactions:read',
  'webhooks:read',
  'webhooks:resend',
  'cashouts:read',
  'cashouts:decide',
  'merchants:read',
  'merchants:manage',
  'jobs:read',
  'jobs:rerun',
  'reconciliation:read',
  'reconciliation:resolve',
  'keys:manage',
  'subsidiaries:manage',
  'operators:manage',
  'audit:read',
  'queues:dashboard',
  'staff:manage',
] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

const VIEWER: readonly StaffPermission[] = [
  'transactions:read',
  'webhooks:read',
  'cashouts:read',
  'merchants:read',
  'jobs:read',
  'reconciliation:read',
];
const APPROVER: readonly StaffPermission[] = [
  ...VIEWER,
  'cashouts:decide',
  'webhooks:resend',
  'reconciliation:resolve',
];

const GRANTS: Readonly<Record<StaffRole, ReadonlySet<StaffPermission>>> = {
  viewer: new Set(VIEWER),
  approver: new Set(APPROVER),
  admin: new Set(STAFF_PERMISSIONS),
};

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

/**
 * Takes any string because roles come from the database: an unknown role is granted nothing, so a bad
 * row fails closed instead of throwing in the middle of a request.
 */
export function can(role: string, permission: StaffPermission): boolean {
  return isStaffRole(role) && GRANTS[role].has(permission);
}

/** The permissions of a role, in the order of STAFF_PERMISSIONS (for display). */
export function permissionsOf(role: string): StaffPermission[] {
  return STAFF_PERMISSIONS.filter((p) => can(role, p));
}
