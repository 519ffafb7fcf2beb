import type { Db } from '@mm/db';
import { findStaffByEmail, recordAudit, setStaffDisabled } from '@mm/db/staff';

/**
 * Disables a back-office account from the command line, with its audit row (actor `admin-cli`) in the
 * same transaction. The way to shut the demo staff accounts when a production back-office refuses to
 * start because of them (it cannot be done from a back-office that does not start).
 */
export async function staffDisable(
  db: Db,
  email: string,
): Promise<{ staff_id: string; email: string; disabled: true; changed: boolean }> {
  const staff = await findStaffByEmail(db, email);
  if (!staff) throw new Error(`no staff account ${email.trim().toLowerCase()}`);
  return db.$transaction(async (tx) => {
    const change = await setStaffDisabled(tx, staff.id, true);
    const changed = change !== null && change.before.disabledAt === null;
    if (changed) {
      await recordAudit(tx, {
        staffId: null,
        actor: 'admin-cli',
        action: 'staff.disable',
        targetType: 'staff',
        targetId: staff.id,
        before: change.before,
        after: change.after,
      });
    }
    return { staff_id: staff.id, email: staff.email, disabled: true, changed };
  });
}
