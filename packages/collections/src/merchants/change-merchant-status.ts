import { lockMerchant, setMerchantStatus } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import type { AuditContext } from '../audit-context.js';
import type { ChangeOutcome } from '../change-outcome.js';
import type { DbDeps } from '../deps.js';

/**
 * Disables or re-enables a merchant, with its audit row in the same transaction. The gateway reads the
 * status with the key on every request: a disabled merchant's next call answers 403 MERCHANT_DISABLED.
 */
export async function changeMerchantStatus(
  { db }: DbDeps,
  context: AuditContext,
  input: { merchantId: string; status: 'ACTIVE' | 'DISABLED' },
): Promise<ChangeOutcome> {
  return db.$transaction(async (tx) => {
    // Locked, so two staff members acting at once cannot both record the same "before".
    const merchant = await lockMerchant(tx, input.merchantId);
    if (!merchant) return 'not_found';
    if (merchant.status === input.status) return 'unchanged';
    await setMerchantStatus(tx, merchant.id, input.status);
    await recordAudit(tx, {
      ...context,
      action: input.status === 'DISABLED' ? 'merchant.disable' : 'merchant.enable',
      targetType: 'merchant',
      targetId: merchant.id,
      before: { name: merchant.name, status: merchant.status },
      after: { name: merchant.name, status: input.status },
    });
    return 'changed';
  });
}
