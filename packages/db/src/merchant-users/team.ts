/**
 * Changes to a team that must keep an owner: a role changed or a member removed, each after locking the
 * merchant's row, so two owners demoting each other at the same moment cannot leave the team without one.
 */
import { isUuid, type MerchantRole } from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import { findMerchantUserById, type MerchantUserAccount } from './merchant-users.js';

/** Locks the merchant's team (its row) for the transaction and reads the member and the active owners' count. */
export async function lockTeamMember(
  tx: Tx,
  merchantId: string,
  memberId: string,
): Promise<{ member: MerchantUserAccount | null; activeOwners: number }> {
  await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchantId}::uuid FOR UPDATE`;
  const member = isUuid(memberId) ? await findMerchantUserById(tx, memberId) : null;
  const activeOwners = await tx.merchantUser.count({ where: { merchantId, role: 'owner', disabledAt: null } });
  return { member: member && member.merchantId === merchantId ? member : null, activeOwners };
}

export async function setMerchantUserRole(tx: Tx, id: string, role: MerchantRole, now: Date): Promise<void> {
  await tx.merchantUser.update({ where: { id }, data: { role, updatedAt: now } });
}

/**
 * Each member's last sign-in, from the audit log (the audit_log_merchant_idx): a `portal.login`, or the
 * acceptance of their invitation, which signs them in.
 */
export async function lastSignIns(db: Db | Tx, merchantId: string): Promise<Map<string, Date>> {
  const rows = await db.$queryRaw<{ merchant_user_id: string; at: Date }[]>`
    SELECT merchant_user_id, max(created_at) AS at FROM audit_log
    WHERE merchant_id = ${merchantId}::uuid AND merchant_user_id IS NOT NULL
      AND action IN ('portal.login', 'portal.team.invitation_accepted')
    GROUP BY merchant_user_id`;
  return new Map(rows.map((r) => [r.merchant_user_id, r.at]));
}
