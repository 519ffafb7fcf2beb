import { can, isStaffRole, permissionsOf, STAFF_PERMISSIONS, STAFF_ROLES } from './staff-permissions.js';

describe('staff permissions', () => {
  it('viewer reads everything but the audit log, and changes nothing', () => {
    expect(permissionsOf('viewer')).toEqual([
      'transactions:read',
      'webhooks:read',
      'cashouts:read',
      'merchants:read',
      'jobs:read',
      'reconciliation:read',
    ]);
    expect(can('viewer', 'audit:read')).toBe(false);
    expect(can('viewer', 'cashouts:decide')).toBe(false);
    expect(can('viewer', 'reconciliation:resolve')).toBe(false);
    expect(can('viewer', 'jobs:rerun')).toBe(false);
  });

  it('approver is a viewer who also decides cash-outs, resends webhooks and resolves reconciliation cases', () => {
    expect(permissionsOf('approver').sort()).toEqual(
      [...permissionsOf('viewer'), 'cashouts:decide', 'webhooks:resend', 'reconciliation:resolve'].sort(),
    );
    for (const p of [
      'merchants:manage',
      'keys:manage',
      'subsidiaries:manage',
      'operators:manage',
      'audit:read',
      'queues:dashboard',
      'staff:manage',
      'jobs:rerun',
    ] as const) {
      expect(can('approver', p)).toBe(false);
    }
  });

  it('admin may do everything', () => {
    expect(permissionsOf('admin')).toEqual([...STAFF_PERMISSIONS]);
  });

  it('each role holds every permission of the roles below it', () => {
    const [admin, approver, viewer] = STAFF_ROLES.map(permissionsOf);
    expect(approver).toEqual(expect.arrayContaining(viewer!));
    expect(admin).toEqual(expect.arrayContaining(approver!));
  });

  it('an unknown role (a bad database row) is granted nothing', () => {
    for (const role of ['', 'Admin', 'root', 'toString', '__proto__']) {
      expect(isStaffRole(role)).toBe(false);
      expect(STAFF_PERMISSIONS.some((p) => can(role, p))).toBe(false);
    }
  });
});
