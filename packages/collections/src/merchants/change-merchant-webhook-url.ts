import { lockMerchant, setMerchantWebhookUrl } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import { auditAction, type AuditContext } from '../audit-context.js';
import type { DbDeps } from '../deps.js';
import type { ChangeOutcome } from '../change-outcome.js';
import { parseWebhookUrl } from './merchant-fields.js';

/** `invalid`: nothing was written, the message goes next to the field. */
export type ChangeWebhookUrlOutcome = ChangeOutcome | { kind: 'invalid'; error: string };

/** Sets (or, with an empty field, removes) a merchant's default webhook URL, with its audit row. */
export async function changeMerchantWebhookUrl(
  { db }: DbDeps,
  context: AuditContext,
  input: { merchantId: string; webhookUrl: string },
): Promise<ChangeWebhookUrlOutcome> {
  const url = parseWebhookUrl(input.webhookUrl);
  if (!url.ok) return { kind: 'invalid', error: url.error };
  return db.$transaction(async (tx) => {
    const merchant = await lockMerchant(tx, input.merchantId);
    if (!merchant) return 'not_found';
    if (merchant.webhookUrl === url.value) return 'unchanged';
    await setMerchantWebhookUrl(tx, merchant.id, url.value);
    await recordAudit(tx, {
      ...context,
      action: auditAction(context, 'merchant.webhook_url'),
      targetType: 'merchant',
      targetId: merchant.id,
      before: { webhookUrl: merchant.webhookUrl },
      after: { webhookUrl: url.value },
    });
    return 'changed';
  });
}
