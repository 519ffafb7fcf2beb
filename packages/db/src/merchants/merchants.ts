import { randomBytes } from 'node:crypto';
import { isIssuedApiKeyFormat } from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import { apiKeySecretBinding, type SecretBox } from '../database/index.js';

export interface IssuedKey {
  merchantId: string;
  apiKey: string;
  /** Shown once, at creation; only its ciphertext is stored. */
  apiSecret: string;
}

export async function createMerchant(
  db: Db | Tx,
  input: { name: string; webhookUrl: string | null },
): Promise<{ id: string }> {
  return db.merchant.create({ data: { name: input.name, webhookUrl: input.webhookUrl }, select: { id: true } });
}

export async function createApiKey(
  db: Db | Tx,
  box: SecretBox,
  merchantId: string,
  fixed?: { apiKey: string; apiSecret: string },
): Promise<IssuedKey> {
  const apiKey = fixed?.apiKey ?? `pk_${randomBytes(16).toString('hex')}`;
  const apiSecret = fixed?.apiSecret ?? `sk_${randomBytes(32).toString('hex')}`;
  // The gateway refuses any other format unread: such a key could never authenticate.
  if (!isIssuedApiKeyFormat(apiKey)) throw new Error('an API key is pk_ followed by 32 lowercase hex digits');
  await db.apiKey.create({
    data: { merchantId, apiKey, secretCiphertext: box.seal(apiSecret, apiKeySecretBinding({ merchantId, apiKey })) },
  });
  return { merchantId, apiKey, apiSecret };
}

/** Revokes at once (also a key already set to expire later). False when no such key is still usable. */
export async function revokeApiKey(db: Db | Tx, apiKey: string, now = new Date()): Promise<boolean> {
  const { count } = await db.apiKey.updateMany({
    where: { apiKey, OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
    data: { revokedAt: now },
  });
  return count === 1;
}

/**
 * Rotation: a new key, and the old one kept working for `graceS` seconds (revoked_at set in the
 * future) so the merchant can deploy the new secret without a gap. graceS 0 revokes it at once.
 * Null when the old key is unknown or no longer usable. In the caller's transaction, so that an
 * audit row commits with the rotation or not at all.
 */
export async function rotateApiKey(
  tx: Tx,
  box: SecretBox,
  apiKey: string,
  graceS: number,
  now = new Date(),
): Promise<IssuedKey | null> {
  const old = await tx.apiKey.findFirst({ where: { apiKey, OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] } });
  if (!old) return null;
  await tx.apiKey.update({ where: { id: old.id }, data: { revokedAt: new Date(now.getTime() + graceS * 1000) } });
  return createApiKey(tx, box, old.merchantId);
}

/** ACTIVE or DISABLED; a disabled merchant's keys answer 403 MERCHANT_DISABLED (decisions 2). */
export async function setMerchantStatus(
  db: Db | Tx,
  merchantId: string,
  status: 'ACTIVE' | 'DISABLED',
): Promise<boolean> {
  const { count } = await db.merchant.updateMany({
    where: { id: merchantId },
    data: { status, updatedAt: new Date() },
  });
  return count === 1;
}

export async function setMerchantWebhookUrl(
  db: Db | Tx,
  merchantId: string,
  webhookUrl: string | null,
): Promise<boolean> {
  const { count } = await db.merchant.updateMany({
    where: { id: merchantId },
    data: { webhookUrl, updatedAt: new Date() },
  });
  return count === 1;
}

export interface ActiveKey {
  merchantId: string;
  merchantStatus: string;
  secret: string;
}

/** A key as stored, revoked or not: a rotated key has a revoked_at in the future and works until then. */
export interface ApiKeyRecord extends ActiveKey {
  revokedAt: Date | null;
}

export function keyUsableAt(key: ApiKeyRecord, now: Date): boolean {
  return key.revokedAt === null || key.revokedAt > now;
}

/** One round trip: the key and its merchant's status together; null for a key that never existed. */
export async function lookupApiKey(db: Db, box: SecretBox, apiKey: string): Promise<ApiKeyRecord | null> {
  const [key] = await db.$queryRaw<
    { merchant_id: string; merchant_status: string; secret_ciphertext: string; revoked_at: Date | null }[]
  >`
    SELECT k.merchant_id::text, m.status AS merchant_status, k.secret_ciphertext, k.revoked_at
      FROM api_keys k JOIN merchants m ON m.id = k.merchant_id WHERE k.api_key = ${apiKey}`;
  if (!key) return null;
  const secret = box.open(key.secret_ciphertext, apiKeySecretBinding({ merchantId: key.merchant_id, apiKey }));
  return { merchantId: key.merchant_id, merchantStatus: key.merchant_status, secret, revokedAt: key.revoked_at };
}

export async function findActiveKey(db: Db, box: SecretBox, apiKey: string): Promise<ActiveKey | null> {
  const key = await lookupApiKey(db, box, apiKey);
  return key && keyUsableAt(key, new Date()) ? key : null;
}

/** Webhooks are signed with the newest active key's secret (decisions 9). */
export async function newestActiveSecret(db: Db, box: SecretBox, merchantId: string): Promise<string | null> {
  const key = await db.apiKey.findFirst({ where: { merchantId, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  return key ? box.open(key.secretCiphertext, apiKeySecretBinding(key)) : null;
}
