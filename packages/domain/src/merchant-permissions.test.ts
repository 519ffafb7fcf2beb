import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  MERCHANT_PERMISSIONS,
  MERCHANT_ROLES,
  merchantCan,
  merchantPermissionsOf,
  STEP_UP_PERMISSIONS,
} from './merchant-permissions.js';

/** The table in the module's comment is the one the code enforces, cell by cell. */
function documentedTable(): Map<string, Set<string>> {
  const source = readFileSync(fileURLToPath(new URL('./merchant-permissions.ts', import.meta.url)), 'utf8');
  const rows = source.split('\n').filter((line) => /^ \* \| [a-z]+:[a-z]+ /.test(line));
  const table = new Map<string, Set<string>>();
  for (const row of rows) {
    const [permission, ...cells] = row
      .replace(/^ \* \|/, '')
      .split('|')
      .map((c) => c.trim());
    table.set(permission!, new Set(MERCHANT_ROLES.filter((_, i) => cells[i] === 'x')));
  }
  return table;
}

describe('merchant portal permissions', () => {
  it('grant exactly the documented table', () => {
    const table = documentedTable();
    expect([...table.keys()].sort()).toEqual([...MERCHANT_PERMISSIONS].sort());
    for (const permission of MERCHANT_PERMISSIONS)
      for (const role of MERCHANT_ROLES)
        expect([permission, role, merchantCan(role, permission)]).toEqual([
          permission,
          role,
          table.get(permission)!.has(role),
        ]);
  });

  it('let owners, admins and finance manage payment links, with no fresh code; everyone reads them', () => {
    expect(MERCHANT_ROLES.filter((r) => merchantCan(r, 'links:manage'))).toEqual(['owner', 'admin', 'finance']);
    expect(STEP_UP_PERMISSIONS.has('links:manage')).toBe(false);
    expect(MERCHANT_ROLES.every((r) => merchantCan(r, 'payments:read'))).toBe(true);
  });

  it('grant nothing to an unknown role', () => {
    expect(merchantPermissionsOf('superuser')).toEqual([]);
    expect(merchantCan('', 'payments:read')).toBe(false);
  });
});
