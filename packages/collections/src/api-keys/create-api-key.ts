import { createApiKey, findMerchant, type IssuedKey } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import { auditAction, type AuditContext } from '../audit-context.js';
import type { KeyDeps } from '../deps.js';

/**
 * One more key for a merchant (decisions 1: several may be active at once), with its audit row. The
 * secret is returned for the one response that shows it; the audit row has the public api_key only.
 */
export async function createMerchantApiKey(
  { db, box }: KeyDeps,
  context: AuditContext,
  input: { merchantId: string },
): Promise<IssuedKey | 'not_found'> {
  return db.$transaction(async (tx) => {
    const merchant = await findMerchant(tx, input.merchantId);
    if (!merchant) return 'not_found';
    const key = await createApiKey(tx, box, merchant.id);
    await recordAudit(tx, {
      ...context,
      action: auditAction(context, 'api_key.create'),
      targetType: 'api_key',
      targetId: key.apiKey,
      before: null,
      after: { merchantId: merchant.id, apiKey: key.apiKey, revokedAt: null },
    });
    return key;
  });
}
