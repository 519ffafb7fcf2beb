/**
 * Staff changes to an operator account (back-office /operators, `pnpm admin operator:*`): each one in
 * one transaction with its audit row, the row locked first so the audit "before" is what the change
 * really replaced. Shared by both doors so they refuse the same things the same way.
 *
 * Credentials never reach an audit row: a credential change records whether the account had some and
 * the names of those set now, never a value (nor the ciphertext).
 */
import {
  deploymentModeViolation,
  isOperatorApiName,
  isOperatorCode,
  OPERATOR_API_NAMES,
  OPERATORS,
  type DeploymentMode,
} from '@mm/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { Db, Tx, SecretBox } from '../database/index.js';
import { recordAudit, type AuditInput } from '../staff/index.js';
import { isUniqueViolation } from '../database/index.js';
import { normalisePrefixes } from './changes.js';
import { openCredentials, setOperatorAccountCredentials } from './credentials.js';
import { lockOperatorAccount, type OperatorAccountSummary } from './summary.js';

/** Who changes it, from where (the back-office's AuditContext; the CLI's actor `admin-cli`). */
export type OperatorAuditContext = Pick<AuditInput, 'staffId' | 'actor' | 'requestId' | 'ip'>;

export interface OperatorAccountKey {
  countryCode: string;
  operator: string;
}

/** The fields a change names; the others are kept. Values already checked (@mm/domain operator-account-fields). */
export interface OperatorAccountFields {
  api?: string;
  baseUrl?: string | null;
  settings?: Record<string, unknown>;
  prefixes?: string[];
  enabled?: boolean;
}

export type OperatorAccountChange =
  | { kind: 'create'; fields: OperatorAccountFields & { api: string } }
  | { kind: 'update'; fields: OperatorAccountFields }
  | { kind: 'down'; reason: string }
  | { kind: 'up' }
  /** Replaces them all (a rotation sends them all again). */
  | { kind: 'credentials'; credentials: Record<string, string> };

/** `refused`: nothing was written; the message says why (for the page or the terminal). */
export type OperatorChangeOutcome = 'changed' | 'unchanged' | 'not_found' | { kind: 'refused'; error: string };

type Editable = Required<OperatorAccountFields>;
const FIELDS = ['api', 'baseUrl', 'settings', 'prefixes', 'enabled'] as const satisfies readonly (keyof Editable)[];

export function operatorAccountTargetId(key: OperatorAccountKey): string {
  return `${key.countryCode}:${key.operator}`;
}

const refused = (error: string): OperatorChangeOutcome => ({ kind: 'refused', error });

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * What may not be saved. An enabled account of a real operator without a base URL or credentials would
 * take payments (routing sends them to it) only to fail each one: it is refused. A simulator account
 * without them uses the services' own OPERATOR_* settings.
 */
function invalidState(next: Editable, hasCredentials: boolean): string | null {
  if (!isOperatorApiName(next.api)) return `Unknown API "${next.api}": one of ${OPERATOR_API_NAMES.join(', ')}.`;
  if (next.enabled && next.api !== 'simulator' && (next.baseUrl === null || !hasCredentials)) {
    return `An account of the ${next.api} API can be enabled only once it has a base URL and credentials.`;
  }
  return null;
}

/** The deployment's mode refuses it (deployment-mode.ts of @mm/domain): as the services would at their start. */
function modeRefusal(
  mode: DeploymentMode,
  key: OperatorAccountKey,
  next: Editable,
  credentials: Record<string, string> | null,
): OperatorChangeOutcome | null {
  const violation = deploymentModeViolation(mode, { ...key, ...next, credentials });
  return violation ? refused(`Refused in a ${mode} deployment: ${violation}.`) : null;
}

function pick(from: Editable, keys: readonly (keyof Editable)[]): Partial<Editable> {
  return Object.fromEntries(keys.map((k) => [k, from[k]]));
}

async function create(
  tx: Tx,
  mode: DeploymentMode,
  context: OperatorAuditContext,
  key: OperatorAccountKey,
  fields: OperatorAccountFields & { api: string },
): Promise<OperatorChangeOutcome> {
  if (
    !/^[A-Z]{2}$/.test(key.countryCode) ||
    !(await tx.subsidiary.findUnique({ where: { countryCode: key.countryCode } }))
  ) {
    return refused(`There is no subsidiary ${key.countryCode}.`);
  }
  if (!isOperatorCode(key.operator))
    return refused(`Unknown operator "${key.operator}": one of ${OPERATORS.join(', ')}.`);
  if (await lockOperatorAccount(tx, key.countryCode, key.operator))
    return refused(`The account ${key.countryCode} ${key.operator} already exists.`);
  const next: Editable = {
    api: fields.api,
    baseUrl: fields.baseUrl ?? null,
    settings: fields.settings ?? {},
    prefixes: normalisePrefixes(fields.prefixes ?? []),
    enabled: fields.enabled ?? false,
  };
  const invalid = invalidState(next, false);
  if (invalid) return refused(invalid);
  const byMode = modeRefusal(mode, key, next, null);
  if (byMode) return byMode;
  await tx.operatorAccount.create({ data: { ...key, ...next, settings: next.settings as Prisma.InputJsonObject } });
  await recordAudit(tx, {
    ...context,
    action: 'operator_account.create',
    targetType: 'operator_account',
    targetId: operatorAccountTargetId(key),
    before: null,
    after: next,
  });
  return 'changed';
}

async function change(
  tx: Tx,
  box: SecretBox,
  mode: DeploymentMode,
  context: OperatorAuditContext,
  account: OperatorAccountSummary,
  change: Exclude<OperatorAccountChange, { kind: 'create' }>,
): Promise<OperatorChangeOutcome> {
  const key = { countryCode: account.countryCode, operator: account.operator };
  const current: Editable = {
    api: account.api,
    baseUrl: account.baseUrl,
    settings: account.settings,
    prefixes: account.prefixes,
    enabled: account.enabled,
  };
  // The credentials it keeps, opened only to be checked against the mode (a Wave key says whether it is live).
  const kept = async () => {
    const row = await tx.operatorAccount.findUnique({
      where: { countryCode_operator: key },
      select: { credentialsSealed: true },
    });
    return row?.credentialsSealed ? openCredentials(box, key, row.credentialsSealed) : null;
  };
  const audit = (action: string, before: unknown, after: unknown) =>
    recordAudit(tx, {
      ...context,
      action: `operator_account.${action}`,
      targetType: 'operator_account',
      targetId: operatorAccountTargetId(key),
      before,
      after,
    });
  switch (change.kind) {
    case 'update': {
      const wanted = {
        ...change.fields,
        ...(change.fields.prefixes ? { prefixes: normalisePrefixes(change.fields.prefixes) } : {}),
      };
      const next: Editable = {
        ...current,
        ...Object.fromEntries(Object.entries(wanted).filter(([, v]) => v !== undefined)),
      };
      const changed = FIELDS.filter((k) => !sameValue(current[k], next[k]));
      if (changed.length === 0) return 'unchanged';
      const invalid = invalidState(next, account.hasCredentials);
      if (invalid) return refused(invalid);
      const byMode = modeRefusal(mode, key, next, await kept());
      if (byMode) return byMode;
      const { settings, ...rest } = pick(next, changed);
      await tx.operatorAccount.update({
        where: { countryCode_operator: key },
        data: {
          ...rest,
          ...(settings !== undefined ? { settings: settings as Prisma.InputJsonObject } : {}),
          updatedAt: new Date(),
        },
      });
      const action =
        changed.length === 1 && changed[0] === 'enabled' ? (next.enabled ? 'enable' : 'disable') : 'update';
      await audit(action, pick(current, changed), pick(next, changed));
      return 'changed';
    }
    case 'down': {
      if (account.markedDownAt !== null && account.markedDownReason === change.reason) return 'unchanged';
      // Already down: only the reason changes, "down since" stays when it went down.
      const markedDownAt = account.markedDownAt ?? new Date();
      await tx.operatorAccount.update({
        where: { countryCode_operator: key },
        data: { markedDownAt, markedDownReason: change.reason, updatedAt: new Date() },
      });
      await audit(
        'mark_down',
        { markedDownAt: account.markedDownAt, markedDownReason: account.markedDownReason },
        { markedDownAt, markedDownReason: change.reason },
      );
      return 'changed';
    }
    case 'up': {
      if (account.markedDownAt === null) return 'unchanged';
      await tx.operatorAccount.update({
        where: { countryCode_operator: key },
        data: { markedDownAt: null, markedDownReason: null, updatedAt: new Date() },
      });
      await audit(
        'mark_up',
        { markedDownAt: account.markedDownAt, markedDownReason: account.markedDownReason },
        { markedDownAt: null, markedDownReason: null },
      );
      return 'changed';
    }
    case 'credentials': {
      const names = Object.keys(change.credentials).sort();
      if (names.length === 0) return refused('No credentials given.');
      const byMode = modeRefusal(mode, key, current, change.credentials);
      if (byMode) return byMode;
      await setOperatorAccountCredentials(tx, box, key.countryCode, key.operator, change.credentials);
      // Names only: which credentials a rotation set, never what they are.
      await audit(
        'credentials',
        { hasCredentials: account.hasCredentials },
        { hasCredentials: true, credentialNames: names },
      );
      return 'changed';
    }
  }
}

/**
 * Applies one change with its audit row, in one transaction; a change that changes nothing writes no row.
 * What the deployment's mode forbids (a simulator enabled live, an account set up for the operator's live
 * system in a sandbox) is refused like any invalid change.
 */
export async function changeOperatorAccount(
  db: Db,
  box: SecretBox,
  mode: DeploymentMode,
  context: OperatorAuditContext,
  key: OperatorAccountKey,
  request: OperatorAccountChange,
): Promise<OperatorChangeOutcome> {
  try {
    return await db.$transaction(async (tx) => {
      if (request.kind === 'create') return create(tx, mode, context, key, request.fields);
      const account = await lockOperatorAccount(tx, key.countryCode, key.operator);
      if (!account) return 'not_found';
      return change(tx, box, mode, context, account, request);
    });
  } catch (err) {
    // Two creations of one account at once: the second finds the first's row at insert time.
    if (request.kind === 'create' && isUniqueViolation(err))
      return refused(`The account ${key.countryCode} ${key.operator} already exists.`);
    throw err;
  }
}
