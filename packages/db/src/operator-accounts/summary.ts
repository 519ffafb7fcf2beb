import type { Db, Tx } from '../database/index.js';

/**
 * An operator account as staff, the gateway's routing and the logs may see it: never its credentials,
 * only whether it has some and which names they carry (what a rotation must send again).
 */
export interface OperatorAccountSummary {
  countryCode: string;
  operator: string;
  api: string;
  baseUrl: string | null;
  settings: Record<string, unknown>;
  prefixes: string[];
  enabled: boolean;
  markedDownAt: Date | null;
  markedDownReason: string | null;
  hasCredentials: boolean;
  updatedAt: Date;
}

const SUMMARY = {
  countryCode: true,
  operator: true,
  api: true,
  baseUrl: true,
  settings: true,
  prefixes: true,
  enabled: true,
  markedDownAt: true,
  markedDownReason: true,
  updatedAt: true,
  credentialsSealed: true,
} as const;

type Row = { credentialsSealed: string | null; settings: unknown } & Omit<
  OperatorAccountSummary,
  'hasCredentials' | 'settings'
>;

function summaryOf(row: Row): OperatorAccountSummary {
  const { credentialsSealed, settings, ...rest } = row;
  return { ...rest, settings: (settings ?? {}) as Record<string, unknown>, hasCredentials: credentialsSealed !== null };
}

export async function listOperatorAccounts(db: Db | Tx, countryCode?: string): Promise<OperatorAccountSummary[]> {
  const rows = await db.operatorAccount.findMany({
    where: countryCode ? { countryCode } : {},
    select: SUMMARY,
    orderBy: [{ countryCode: 'asc' }, { operator: 'asc' }],
  });
  return rows.map(summaryOf);
}

export async function findOperatorAccount(
  db: Db | Tx,
  countryCode: string,
  operator: string,
): Promise<OperatorAccountSummary | null> {
  const row = await db.operatorAccount.findUnique({
    where: { countryCode_operator: { countryCode, operator } },
    select: SUMMARY,
  });
  return row && summaryOf(row);
}

/** The row lock of a change about to be made, so its audit row's "before" is what it really replaced. */
export async function lockOperatorAccount(
  tx: Tx,
  countryCode: string,
  operator: string,
): Promise<OperatorAccountSummary | null> {
  const locked = await tx.$queryRaw<{ country_code: string }[]>`
    SELECT country_code FROM operator_accounts WHERE country_code = ${countryCode} AND operator = ${operator} FOR UPDATE`;
  return locked.length === 0 ? null : findOperatorAccount(tx, countryCode, operator);
}
