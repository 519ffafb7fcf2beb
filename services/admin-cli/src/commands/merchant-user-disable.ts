import type { Db } from '@mm/db';
import { findMerchantUserForLogin, normalizeMerchantUserEmail, setMerchantUserDisabled } from '@mm/db/merchant-users';
import { recordAudit } from '@mm/db/staff';

/**
 * Disables a merchant portal user from the command line, with its audit row (actor `admin-cli`, in the
 * merchant's part of the log) in the same transaction. The way to shut the demo portal owner when a
 * production service refuses to start because of it: no web app starts until it is shut.
 */
export async function merchantUserDisable(
  db: Db,
  email: string,
): Promise<{ merchant_user_id: string; merchant_id: string; email: string; disabled: true; changed: boolean }> {
  const user = await findMerchantUserForLogin(db, { email });
  if (!user) throw new Error(`no merchant portal user ${normalizeMerchantUserEmail(email)}`);
  return db.$transaction(async (tx) => {
    const change = await setMerchantUserDisabled(tx, user.id, true);
    const changed = change !== null && change.before.disabledAt === null;
    if (changed) {
      await recordAudit(tx, {
        staffId: null,
        actor: 'admin-cli',
        action: 'merchant_user.disable',
        targetType: 'merchant_user',
        targetId: user.id,
        merchantId: user.merchantId,
        merchantUserId: user.id,
        before: { disabledAt: change.before.disabledAt },
        after: { disabledAt: change.after.disabledAt },
      });
    }
    return { merchant_user_id: user.id, merchant_id: user.merchantId, email: user.email, disabled: true, changed };
  });
}
