import type { ModeCheckedAccount } from '@mm/domain';
import type { Db, Tx, SecretBox } from '../database/index.js';
import type { OperatorAccountSummary } from './summary.js';
import { findOperatorAccount } from './summary.js';

/**
 * What an account's credentials are bound to: copied onto another account's row (someone with write
 * access moving MTN CI's keys onto Orange SN), the ciphertext no longer opens.
 */
export function operatorAccountSecretBinding(a: { countryCode: string; operator: string }): string {
  return `operator_accounts:${a.countryCode}:${a.operator}`;
}

export function sealCredentials(
  box: SecretBox,
  account: { countryCode: string; operator: string },
  credentials: Record<string, string>,
): string {
  return box.seal(JSON.stringify(credentials), operatorAccountSecretBinding(account));
}

export function openCredentials(
  box: SecretBox,
  account: { countryCode: string; operator: string },
  sealed: string,
): Record<string, string> {
  return JSON.parse(box.open(sealed, operatorAccountSecretBinding(account))) as Record<string, string>;
}

/** An account with its credentials opened: only for the services that call the operator. */
export interface OperatorAccountWithCredentials extends OperatorAccountSummary {
  credentials: Record<string, string> | null;
}

export async function loadOperatorAccount(
  db: Db,
  box: SecretBox,
  countryCode: string,
  operator: string,
): Promise<OperatorAccountWithCredentials | null> {
  const [summary, sealed] = await Promise.all([
    findOperatorAccount(db, countryCode, operator),
    db.operatorAccount.findUnique({
      where: { countryCode_operator: { countryCode, operator } },
      select: { credentialsSealed: true },
    }),
  ]);
  if (!summary) return null;
  const raw = sealed?.credentialsSealed ?? null;
  if (raw === null) return { ...summary, credentials: null };
  return { ...summary, credentials: openCredentials(box, summary, raw) };
}

/**
 * Every account as the deployment mode's rules read it (deployment-mode.ts of @mm/domain), with its
 * credentials opened when `box` can; without a box (a service with no MASTER_KEY) credentials are not read.
 */
export async function listAccountsForModeCheck(db: Db, box: SecretBox | null): Promise<ModeCheckedAccount[]> {
  const rows = await db.operatorAccount.findMany({ orderBy: [{ countryCode: 'asc' }, { operator: 'asc' }] });
  return rows.map((r) => ({
    countryCode: r.countryCode,
    operator: r.operator,
    api: r.api,
    enabled: r.enabled,
    baseUrl: r.baseUrl,
    settings: (r.settings ?? {}) as Record<string, unknown>,
    credentials: box && r.credentialsSealed ? openedOrNull(box, r, r.credentialsSealed) : null,
  }));
}

// Credentials this key cannot open are of no use to this service either: checked as if it had none.
function openedOrNull(
  box: SecretBox,
  account: { countryCode: string; operator: string },
  sealed: string,
): Record<string, string> | null {
  try {
    return openCredentials(box, account, sealed);
  } catch {
    return null;
  }
}

/** Replaces the account's credentials (a rotation sends them all): they are never read back by staff. */
export async function setOperatorAccountCredentials(
  tx: Db | Tx,
  box: SecretBox,
  countryCode: string,
  operator: string,
  credentials: Record<string, string>,
): Promise<boolean> {
  const { count } = await tx.operatorAccount.updateMany({
    where: { countryCode, operator },
    data: { credentialsSealed: sealCredentials(box, { countryCode, operator }, credentials), updatedAt: new Date() },
  });
  return count === 1;
}
