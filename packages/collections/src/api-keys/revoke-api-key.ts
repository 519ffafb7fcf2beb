import { lockApiKey, revokeApiKey } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import { auditAction, type AuditContext } from '../audit-context.js';
import type { DbDeps } from '../deps.js';
import type { ChangeOutcome } from '../change-outcome.js';

/**
 * Revokes a key at once, also one in its grace period after a rotation (the gateway answers 401
 * INVALID_API_KEY from the next request on), with its audit row in the same transaction.
 */
export async function revokeMerchantApiKey(
  { db }: DbDeps,
  context: AuditContext,
  input: { merchantId: string; apiKey: string; now: Date },
): Promise<ChangeOutcome> {
  return db.$transaction(async (tx) => {
    const key = await lockApiKey(tx, input.apiKey);
    if (!key || key.merchantId !== input.merchantId) return 'not_found';
    if (key.revokedAt !== null && key.revokedAt <= input.now) return 'unchanged';
    if (!(await revokeApiKey(tx, key.apiKey, input.now))) return 'unchanged';
    await recordAudit(tx, {
      ...context,
      action: auditAction(context, 'api_key.revoke'),
      targetType: 'api_key',
      targetId: key.apiKey,
      before: { merchantId: key.merchantId, apiKey: key.apiKey, revokedAt: key.revokedAt },
      after: { merchantId: key.merchantId, apiKey: key.apiKey, revokedAt: input.now },
    });
    return 'changed';
  });
}
