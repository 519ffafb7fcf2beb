import { isOperatorPrefix } from '@mm/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { Db, Tx } from '../database/index.js';

export interface OperatorAccountInput {
  countryCode: string;
  operator: string;
  api: string;
  baseUrl?: string | null;
  settings?: Record<string, unknown>;
  prefixes?: string[];
  enabled?: boolean;
}

/** Prefixes as stored: each "+" and digits, once, longest first (what an admin reads first is what wins). */
export function normalisePrefixes(prefixes: readonly string[]): string[] {
  const bad = prefixes.filter((p) => !isOperatorPrefix(p));
  if (bad.length > 0) throw new Error(`not E.164 prefixes ("+" and 3 to 15 digits): ${bad.join(', ')}`);
  return [...new Set(prefixes)].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

/** Creates the account, or updates what the input names (credentials are set apart: setOperatorAccountCredentials). */
export async function upsertOperatorAccount(db: Db | Tx, input: OperatorAccountInput): Promise<void> {
  const data = {
    api: input.api,
    ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
    ...(input.settings !== undefined ? { settings: input.settings as Prisma.InputJsonObject } : {}),
    ...(input.prefixes !== undefined ? { prefixes: normalisePrefixes(input.prefixes) } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
  };
  await db.operatorAccount.upsert({
    where: { countryCode_operator: { countryCode: input.countryCode, operator: input.operator } },
    create: { countryCode: input.countryCode, operator: input.operator, ...data },
    update: { ...data, updatedAt: new Date() },
  });
}

async function update(
  db: Db | Tx,
  countryCode: string,
  operator: string,
  data: Prisma.OperatorAccountUpdateManyMutationInput,
): Promise<boolean> {
  const { count } = await db.operatorAccount.updateMany({
    where: { countryCode, operator },
    data: { ...data, updatedAt: new Date() },
  });
  return count === 1;
}

export function setOperatorAccountEnabled(
  db: Db | Tx,
  countryCode: string,
  operator: string,
  enabled: boolean,
): Promise<boolean> {
  return update(db, countryCode, operator, { enabled });
}

export async function setOperatorAccountPrefixes(
  db: Db | Tx,
  countryCode: string,
  operator: string,
  prefixes: readonly string[],
): Promise<boolean> {
  return update(db, countryCode, operator, { prefixes: normalisePrefixes(prefixes) });
}

/** Down: new payments for it answer 503 until it is marked up again (those under way carry on). */
export function markOperatorAccountDown(
  db: Db | Tx,
  countryCode: string,
  operator: string,
  reason: string,
): Promise<boolean> {
  return update(db, countryCode, operator, { markedDownAt: new Date(), markedDownReason: reason.slice(0, 200) });
}

export function markOperatorAccountUp(db: Db | Tx, countryCode: string, operator: string): Promise<boolean> {
  return update(db, countryCode, operator, { markedDownAt: null, markedDownReason: null });
}
