import { lockApiKey, rotateApiKey, type IssuedKey } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import { auditAction, type AuditContext } from '../audit-context.js';
import type { KeyDeps } from '../deps.js';

/** How long a rotated key keeps working, as the form offers it: none, 1 hour, 24 hours, 7 days. */
export const ROTATION_GRACE_S = [0, 3600, 86_400, 604_800] as const;
export type RotationGraceS = (typeof ROTATION_GRACE_S)[number];
/** A day lets a merchant deploy the new secret in working hours without a gap. */
export const DEFAULT_ROTATION_GRACE_S: RotationGraceS = 86_400;

export function isRotationGrace(value: number): value is RotationGraceS {
  return (ROTATION_GRACE_S as readonly number[]).includes(value);
}

export type RotateOutcome =
  | { kind: 'rotated'; key: IssuedKey; oldApiKey: string; oldExpiresAt: Date }
  | 'not_found'
  /** Already revoked, or already rotated and in its grace period: revoke it instead. */
  | 'not_active';

/**
 * A new key for the merchant, and the old one set to stop working after the grace period, with one
 * audit row (`api_key.rotate` on the old key, naming the new one), all in one database transaction.
 */
export async function rotateMerchantApiKey(
  { db, box }: KeyDeps,
  context: AuditContext,
  input: { merchantId: string; apiKey: string; graceS: RotationGraceS; now: Date },
): Promise<RotateOutcome> {
  return db.$transaction(async (tx): Promise<RotateOutcome> => {
    // Locked: two rotations of one key at once would otherwise issue two new keys.
    const old = await lockApiKey(tx, input.apiKey);
    // A key of another merchant, reached through this merchant's URL, is as unknown as a missing one.
    if (!old || old.merchantId !== input.merchantId) return 'not_found';
    // Rotating a key already in its grace period would move its end date (and could extend it).
    if (old.revokedAt !== null) return 'not_active';
    const key = await rotateApiKey(tx, box, old.apiKey, input.graceS, input.now);
    if (!key) return 'not_active';
    const oldExpiresAt = new Date(input.now.getTime() + input.graceS * 1000);
    await recordAudit(tx, {
      ...context,
      action: auditAction(context, 'api_key.rotate'),
      targetType: 'api_key',
      targetId: old.apiKey,
      before: { merchantId: old.merchantId, apiKey: old.apiKey, revokedAt: null },
      after: {
        merchantId: old.merchantId,
        apiKey: old.apiKey,
        revokedAt: oldExpiresAt,
        graceS: input.graceS,
        newApiKey: key.apiKey,
      },
    });
    return { kind: 'rotated', key, oldApiKey: old.apiKey, oldExpiresAt };
  });
}
