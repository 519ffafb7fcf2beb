import { can, type StaffPermission } from '@mm/domain';

export interface NavItem {
  /** Stable id for browser tests: the link has data-nav="<id>". */
  id: string;
  href: string;
  label: string;
  /** Shown only to roles that have it; null: every logged-in staff member. */
  permission: StaffPermission | null;
}

/**
 * The navigation, in display order. A new area adds one line here (and mounts its router in app.ts).
 * Hiding a link is a convenience only: each router checks its permission on the server.
 */
export const NAV: readonly NavItem[] = [
  { id: 'home', href: '/', label: 'Home', permission: null },
  { id: 'transactions', href: '/transactions', label: 'Transactions', permission: 'transactions:read' },
  { id: 'webhooks', href: '/webhooks', label: 'Webhooks', permission: 'webhooks:read' },
  { id: 'parked-jobs', href: '/jobs/parked', label: 'Parked jobs', permission: 'jobs:read' },
  { id: 'cashouts', href: '/cashouts', label: 'Cash-out approvals', permission: 'cashouts:read' },
  { id: 'reconciliation', href: '/reconciliation', label: 'Reconciliation', permission: 'reconciliation:read' },
  { id: 'merchants', href: '/merchants', label: 'Merchants', permission: 'merchants:read' },
  { id: 'subsidiaries', href: '/subsidiaries', label: 'Subsidiaries', permission: 'merchants:read' },
  { id: 'operators', href: '/operators', label: 'Operators', permission: 'merchants:read' },
  { id: 'staff', href: '/staff', label: 'Staff', permission: 'staff:manage' },
  { id: 'audit', href: '/audit', label: 'Audit log', permission: 'audit:read' },
  { id: 'queues', href: '/queues', label: 'Queues', permission: 'queues:dashboard' },
];

export function navFor(role: string): NavItem[] {
  return NAV.filter((item) => item.permission === null || can(role, item.permission));
}
