import { createApiKey, createMerchant, findMerchant, type IssuedKey } from '@mm/db/merchants';
import type { Tx } from '@mm/db';
import { recordAudit } from '@mm/db/staff';
import type { AuditContext } from '../audit-context.js';
import type { KeyDeps } from '../deps.js';
import { parseMerchantName, parseWebhookUrl } from './merchant-fields.js';

export type CreateMerchantOutcome =
  | { kind: 'created'; merchant: { id: string; name: string }; key: IssuedKey }
  /** Nothing was written; the messages go next to the form fields. */
  | { kind: 'invalid'; errors: { name?: string; webhookUrl?: string } };

/**
 * A merchant and its first API key, with one audit row (`merchant.create`), in one database
 * transaction. The returned secret is for the response that shows it once: it is never stored in
 * clear nor written to the audit row (only the public api_key is).
 */
export async function createMerchantWithKey(
  { db, box }: KeyDeps,
  context: AuditContext,
  input: { name: string; webhookUrl: string },
  /** More of the same transaction once the merchant exists (the portal's sign-up creates its owner). */
  andThen?: (tx: Tx, merchantId: string) => Promise<void>,
): Promise<CreateMerchantOutcome> {
  const name = parseMerchantName(input.name);
  const webhookUrl = parseWebhookUrl(input.webhookUrl);
  if (!name.ok || !webhookUrl.ok) {
    return {
      kind: 'invalid',
      errors: { ...(name.ok ? {} : { name: name.error }), ...(webhookUrl.ok ? {} : { webhookUrl: webhookUrl.error }) },
    };
  }
  return db.$transaction(async (tx) => {
    const { id } = await createMerchant(tx, { name: name.value, webhookUrl: webhookUrl.value });
    const key = await createApiKey(tx, box, id);
    const merchant = await findMerchant(tx, id);
    await recordAudit(tx, {
      ...context,
      action: 'merchant.create',
      targetType: 'merchant',
      targetId: id,
      before: null,
      after: { name: merchant!.name, status: merchant!.status, webhookUrl: merchant!.webhookUrl, apiKey: key.apiKey },
    });
    if (andThen) await andThen(tx, id);
    return { kind: 'created', merchant: { id, name: name.value }, key };
  });
}
