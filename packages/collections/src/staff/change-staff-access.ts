import { recordAudit, setStaffDisabled } from '@mm/db/staff';
import type { AuditContext } from '../audit-context.js';
import type { DbDeps } from '../deps.js';

export type ChangeStaffAccessOutcome = 'changed' | 'unchanged' | 'not_found' | 'self';

/**
 * Disables or re-enables a staff account, with its audit row in the same database transaction. A
 * disabled member loses access on their next request (the guard reads the account every time).
 */
export async function changeStaffAccess(
  { db }: DbDeps,
  context: AuditContext,
  input: { staffId: string; disabled: boolean },
): Promise<ChangeStaffAccessOutcome> {
  // An admin locking themselves out could leave nobody able to re-enable anyone.
  if (input.disabled && input.staffId === context.staffId) return 'self';
  return db.$transaction(async (tx) => {
    const change = await setStaffDisabled(tx, input.staffId, input.disabled);
    if (!change) return 'not_found';
    if (change.before === change.after) return 'unchanged';
    await recordAudit(tx, {
      ...context,
      action: input.disabled ? 'staff.disable' : 'staff.enable',
      targetType: 'staff',
      targetId: input.staffId,
      before: change.before,
      after: change.after,
    });
    return 'changed';
  });
}
