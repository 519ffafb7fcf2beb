import { randomBytes } from 'node:crypto';
import type { Db } from './client.js';
import type { SecretBox } from './secret-box.js';

export interface IssuedKey {
  merchantId: string;
  apiKey: string;
  /** Shown once, at creation; only its ciphertext is stored. */
  apiSecret: string;
}

export async function createMerchant(db: Db, input: { name: string; webhookUrl: string | null }): Promise<{ id: string }> {
  return db.merchant.create({ data: { name: input.name, webhookUrl: input.webhookUrl }, select: { id: true } });
}

export async function createApiKey(
  db: Db,
  box: SecretBox,
  merchantId: string,
  fixed?: { apiKey: string; apiSecret: string },
): Promise<IssuedKey> {
  const apiKey = fixed?.apiKey ?? `pk_${randomBytes(16).toString('hex')}`;
  const apiSecret = fixed?.apiSecret ?? `sk_${randomBytes(32).toString('hex')}`;
  await db.apiKey.create({ data: { merchantId, apiKey, secretCiphertext: box.seal(apiSecret) } });
  return { merchantId, apiKey, apiSecret };
}

export async function revokeApiKey(db: Db, apiKey: string): Promise<boolean> {
  const { count } = await db.apiKey.updateMany({ where: { apiKey, revokedAt: null }, data: { revokedAt: new Date() } });
  return count === 1;
}

export interface ActiveKey {
  merchantId: string;
  merchantStatus: string;
  secret: string;
}

export async function findActiveKey(db: Db, box: SecretBox, apiKey: string): Promise<ActiveKey | null> {
  const key = await db.apiKey.findUnique({ where: { apiKey }, include: { merchant: { select: { status: true } } } });
  if (!key || key.revokedAt) return null;
  return { merchantId: key.merchantId, merchantStatus: key.merchant.status, secret: box.open(key.secretCiphertext) };
}

/** Webhooks are signed with the newest active key's secret (decisions 9). */
export async function newestActiveSecret(db: Db, box: SecretBox, merchantId: string): Promise<string | null> {
  const key = await db.apiKey.findFirst({ where: { merchantId, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  return key ? box.open(key.secretCiphertext) : null;
}
