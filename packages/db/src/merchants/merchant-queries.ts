/**
 * What the back-office reads about merchants, their keys and the subsidiaries. The key rows never
 * include `secret_ciphertext`: a page cannot show, and an audit row cannot copy, what was never loaded.
 * The `lock*` functions take the row lock (SELECT ... FOR UPDATE) of a change about to be made, so the
 * "before" written to the audit log is the state the change really replaced, even under concurrent staff.
 */
import type { Db, Tx } from '../database/index.js';
import { isUuid } from '@mm/domain';

export interface MerchantSummary {
  id: string;
  name: string;
  status: string;
  webhookUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A key as staff may see it: the public api_key and its dates. */
export interface ApiKeySummary {
  id: string;
  merchantId: string;
  apiKey: string;
  createdAt: Date;
  /** Null: active. In the future: a rotated key in its grace period. In the past: revoked. */
  revokedAt: Date | null;
}

export interface SubsidiarySummary {
  countryCode: string;
  countryName: string;
  currency: string;
  active: boolean;
  updatedAt: Date;
}

const MERCHANT = { id: true, name: true, status: true, webhookUrl: true, createdAt: true, updatedAt: true } as const;
const KEY = { id: true, merchantId: true, apiKey: true, createdAt: true, revokedAt: true } as const;

/** Newest first. */
export async function listMerchants(db: Db | Tx): Promise<MerchantSummary[]> {
  return db.merchant.findMany({ select: MERCHANT, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
}

export async function findMerchant(db: Db | Tx, id: string): Promise<MerchantSummary | null> {
  // A malformed id would be a database error (invalid uuid), not "no such merchant".
  if (!isUuid(id)) return null;
  return db.merchant.findUnique({ where: { id }, select: MERCHANT });
}

/** Newest first. */
export async function listMerchantKeys(db: Db | Tx, merchantId: string): Promise<ApiKeySummary[]> {
  if (!isUuid(merchantId)) return [];
  return db.apiKey.findMany({ where: { merchantId }, select: KEY, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
}

export async function lockMerchant(tx: Tx, id: string): Promise<MerchantSummary | null> {
  if (!isUuid(id)) return null;
  await tx.$queryRaw`SELECT 1 FROM merchants WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.merchant.findUnique({ where: { id }, select: MERCHANT });
}

export async function lockApiKey(tx: Tx, apiKey: string): Promise<ApiKeySummary | null> {
  await tx.$queryRaw`SELECT 1 FROM api_keys WHERE api_key = ${apiKey} FOR UPDATE`;
  return tx.apiKey.findUnique({ where: { apiKey }, select: KEY });
}

export async function listSubsidiaries(db: Db | Tx): Promise<SubsidiarySummary[]> {
  return db.subsidiary.findMany({ orderBy: { countryCode: 'asc' } });
}

export async function lockSubsidiary(tx: Tx, countryCode: string): Promise<SubsidiarySummary | null> {
  await tx.$queryRaw`SELECT 1 FROM subsidiaries WHERE country_code = ${countryCode} FOR UPDATE`;
  return tx.subsidiary.findUnique({ where: { countryCode } });
}
