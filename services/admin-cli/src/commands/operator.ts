/**
 * `operator:*`: the operator accounts (operator_accounts) from the command line, through the same
 * changeOperatorAccount as the back-office's /operators: one transaction with its audit row (actor
 * `admin-cli`), the same checks, nothing written when a value is refused. Credentials are never
 * printed: the list says only whether an account has some, `operator:credentials` names those it set.
 */
import type { Db } from '@mm/db';
import {
  changeOperatorAccount,
  listOperatorAccounts,
  type OperatorAccountChange,
  type OperatorAccountFields,
  type OperatorAccountKey,
  type OperatorAccountSummary,
  type OperatorAuditContext,
} from '@mm/db/operator-accounts';
import { type SecretBox } from '@mm/db';
import {
  isOperatorApiName,
  OPERATOR_API_NAMES,
  parseDownReason,
  parseOperatorBaseUrl,
  parseOperatorCredentials,
  parseOperatorPrefixes,
  parseOperatorSettings,
  type DeploymentMode,
  type ParsedField,
} from '@mm/domain';

const CLI: OperatorAuditContext = { staffId: null, actor: 'admin-cli' };

/** An account as the CLI prints it: the fields named one by one, so nothing else can slip in. */
export function operatorAccountJson(a: OperatorAccountSummary) {
  return {
    country_code: a.countryCode,
    operator: a.operator,
    api: a.api,
    base_url: a.baseUrl,
    prefixes: a.prefixes,
    enabled: a.enabled,
    marked_down_at: a.markedDownAt?.toISOString() ?? null,
    marked_down_reason: a.markedDownReason,
    has_credentials: a.hasCredentials,
    settings: a.settings,
  };
}

export async function operatorList(
  db: Db,
): Promise<{ accounts: ReturnType<typeof operatorAccountJson>[]; text: string }> {
  const accounts = await listOperatorAccounts(db);
  const lines = accounts.map((a) =>
    [
      `${a.countryCode} ${a.operator.padEnd(9)} ${a.api.padEnd(13)} ${a.enabled ? 'enabled ' : 'disabled'}`,
      a.markedDownAt ? ` DOWN since ${a.markedDownAt.toISOString()} (${a.markedDownReason ?? ''})` : '',
      ` credentials: ${a.hasCredentials ? 'set' : 'none'}`,
      ` base_url: ${a.baseUrl ?? '-'}`,
      ` prefixes: ${a.prefixes.length > 0 ? a.prefixes.join(',') : '-'}`,
      ` settings: ${JSON.stringify(a.settings)}`,
    ].join(''),
  );
  return {
    accounts: accounts.map(operatorAccountJson),
    text: lines.length > 0 ? lines.join('\n') : 'no operator account',
  };
}

function accepted<T>(option: string, parsed: ParsedField<T>): T {
  if (!parsed.ok) throw new Error(`${option}: ${parsed.error}`);
  return parsed.value;
}

export function operatorKey(country: string, operator: string): OperatorAccountKey {
  return { countryCode: country.trim().toUpperCase(), operator: operator.trim().toUpperCase() };
}

async function apply(
  db: Db,
  box: SecretBox,
  mode: DeploymentMode,
  key: OperatorAccountKey,
  change: OperatorAccountChange,
): Promise<'changed' | 'unchanged'> {
  const outcome = await changeOperatorAccount(db, box, mode, CLI, key, change);
  if (outcome === 'not_found') {
    throw new Error(
      `no operator account ${key.countryCode} ${key.operator} (operator:list shows them; operator:set --api API creates one)`,
    );
  }
  if (typeof outcome === 'object') throw new Error(outcome.error);
  return outcome;
}

export interface OperatorSetOptions {
  api?: string;
  baseUrl?: string;
  settings?: string;
  prefixes?: string;
  enable?: boolean;
  disable?: boolean;
}

/**
 * Changes the fields given (all checked before anything is written); an account that does not exist
 * is created when --api is given, else it is an error.
 */
export async function operatorSet(
  db: Db,
  box: SecretBox,
  mode: DeploymentMode,
  key: OperatorAccountKey,
  opts: OperatorSetOptions,
): Promise<{ created: boolean; changed: boolean }> {
  if (opts.enable && opts.disable) throw new Error('--enable and --disable together: choose one');
  if (opts.api !== undefined && !isOperatorApiName(opts.api))
    throw new Error(`--api must be one of ${OPERATOR_API_NAMES.join(', ')}`);
  const fields: OperatorAccountFields = {
    ...(opts.api !== undefined ? { api: opts.api } : {}),
    ...(opts.baseUrl !== undefined ? { baseUrl: accepted('--base-url', parseOperatorBaseUrl(opts.baseUrl)) } : {}),
    ...(opts.settings !== undefined ? { settings: accepted('--settings', parseOperatorSettings(opts.settings)) } : {}),
    ...(opts.prefixes !== undefined ? { prefixes: accepted('--prefixes', parseOperatorPrefixes(opts.prefixes)) } : {}),
    ...(opts.enable ? { enabled: true } : opts.disable ? { enabled: false } : {}),
  };
  if (Object.keys(fields).length === 0)
    throw new Error('nothing to set: give --api, --base-url, --settings, --prefixes, --enable or --disable');
  const outcome = await changeOperatorAccount(db, box, mode, CLI, key, { kind: 'update', fields });
  if (outcome === 'not_found' && fields.api !== undefined) {
    await apply(db, box, mode, key, { kind: 'create', fields: { ...fields, api: fields.api } });
    return { created: true, changed: true };
  }
  if (outcome === 'not_found')
    throw new Error(`no operator account ${key.countryCode} ${key.operator}: give --api to create it`);
  if (typeof outcome === 'object') throw new Error(outcome.error);
  return { created: false, changed: outcome === 'changed' };
}

/**
 * Replaces the account's credentials with the JSON object read from standard input. Only the names are
 * returned (to print): the values are sealed and never shown again.
 */
export async function operatorCredentials(
  db: Db,
  box: SecretBox,
  mode: DeploymentMode,
  key: OperatorAccountKey,
  stdin: string,
): Promise<{ names: string[] }> {
  if (!stdin.trim().startsWith('{'))
    throw new Error(
      'the credentials must come on standard input as one JSON object, such as {"apiUser": "...", "apiKey": "..."}',
    );
  const credentials = accepted('stdin', parseOperatorCredentials(stdin));
  await apply(db, box, mode, key, { kind: 'credentials', credentials });
  return { names: Object.keys(credentials).sort() };
}

export async function operatorDown(
  db: Db,
  box: SecretBox,
  mode: DeploymentMode,
  key: OperatorAccountKey,
  reason: string,
): Promise<{ changed: boolean }> {
  return {
    changed:
      (await apply(db, box, mode, key, { kind: 'down', reason: accepted('--reason', parseDownReason(reason)) })) ===
      'changed',
  };
}

export async function operatorUp(
  db: Db,
  box: SecretBox,
  mode: DeploymentMode,
  key: OperatorAccountKey,
): Promise<{ changed: boolean }> {
  return { changed: (await apply(db, box, mode, key, { kind: 'up' })) === 'changed' };
}

/**
 * `migrate` in a live deployment: the migrations seed a simulator account per subsidiary, enabled (what a
 * sandbox needs); live, each is disabled, audited as the CLI's, so that no payment can reach the simulator
 * and the services start. Returns the accounts it disabled.
 */
export async function disableSimulatorsForLive(db: Db, box: SecretBox): Promise<string[]> {
  const disabled: string[] = [];
  for (const a of await listOperatorAccounts(db)) {
    if (a.api !== 'simulator' || !a.enabled) continue;
    await apply(
      db,
      box,
      'live',
      { countryCode: a.countryCode, operator: a.operator },
      { kind: 'update', fields: { enabled: false } },
    );
    disabled.push(`${a.countryCode} ${a.operator}`);
  }
  return disabled;
}
