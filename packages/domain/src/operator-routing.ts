import type { DeploymentMode } from './deployment-mode.js';

/** The operators a merchant may name in a cash-in or cash-out (`operator`), and that accounts are kept for. */
export const OPERATORS = ['ORANGE', 'MTN', 'MOOV', 'WAVE', 'SIMULATOR'] as const;
export type OperatorCode = (typeof OPERATORS)[number];

export function isOperatorCode(value: string): value is OperatorCode {
  return (OPERATORS as readonly string[]).includes(value);
}

/**
 * The adapter APIs an operator account may name (operator_accounts.api), in one place: the back-office
 * and the admin CLI accept these. Some adapters are still being written (@mm/operators registry.ts
 * OPERATOR_APIS lists those built): an account may name one ahead of its adapter, but stays useless
 * (and should stay disabled) until the adapter exists.
 */
export const OPERATOR_API_NAMES = ['simulator', 'mtn-momo', 'orange-webpay', 'orange-mp', 'wave'] as const;
export type OperatorApiName = (typeof OPERATOR_API_NAMES)[number];

export function isOperatorApiName(value: string): value is OperatorApiName {
  return (OPERATOR_API_NAMES as readonly string[]).includes(value);
}

/** What routing needs to know of one operator account of the payment's subsidiary. */
export interface RoutableAccount {
  operator: string;
  enabled: boolean;
  /** Marked down by an admin (or the breaker): no new payment is sent to it. */
  down: boolean;
  /** E.164 prefixes ("+22505") of the numbers it serves. */
  prefixes: readonly string[];
  /** An account of the simulator API (operator_accounts.api = 'simulator'), whatever its operator's name. */
  simulated?: boolean;
}

export type OperatorRoute =
  | { kind: 'routed'; operator: string }
  /** No account serves the number (or the named operator has none here): 422 OPERATOR_NOT_SUPPORTED. */
  | { kind: 'unsupported' }
  /** Its account is disabled or down: 503 OPERATOR_UNAVAILABLE, try again later. */
  | { kind: 'unavailable'; operator: string; reason: 'disabled' | 'down' };

function longestPrefix(account: RoutableAccount, e164: string): number {
  let best = 0;
  for (const p of account.prefixes) if (p.length > best && e164.startsWith(p)) best = p.length;
  return best;
}

function verdict(account: RoutableAccount): OperatorRoute {
  if (!account.enabled) return { kind: 'unavailable', operator: account.operator, reason: 'disabled' };
  if (account.down) return { kind: 'unavailable', operator: account.operator, reason: 'down' };
  return { kind: 'routed', operator: account.operator };
}

/**
 * Chooses the operator of a payment among its subsidiary's accounts. Named by the merchant: that
 * operator's account, whatever the number (number portability makes any prefix table imperfect, and
 * Wave serves every number of its countries). Otherwise the longest prefix of the number among the
 * enabled accounts; when none matches, the longest among the disabled ones says which operator would
 * have taken it (unavailable, not unsupported: it is a matter of time, not of the number).
 *
 * The deployment's mode (deployment-mode.ts) comes first. Live: a simulator account does not exist for
 * routing, even named, even enabled. Sandbox: a number no account serves goes to the subsidiary's
 * simulator, so that every number of a sandbox reaches the simulator or a contract mock.
 */
export function routeOperator(
  accounts: readonly RoutableAccount[],
  e164: string,
  requested?: string | null,
  mode: DeploymentMode = 'sandbox',
): OperatorRoute {
  if (mode === 'live')
    return route(
      accounts.filter((a) => !a.simulated),
      e164,
      requested,
      false,
    );
  const routed = route(accounts, e164, requested, true);
  if (routed.kind !== 'unsupported' || requested) return routed;
  const simulator = accounts.find((a) => a.simulated && a.enabled && !a.down);
  return simulator ? { kind: 'routed', operator: simulator.operator } : routed;
}

function route(
  accounts: readonly RoutableAccount[],
  e164: string,
  requested: string | null | undefined,
  settingsSimulator: boolean,
): OperatorRoute {
  // A subsidiary without any operator account (activated before accounts existed, or not yet set up)
  // keeps what it had in a sandbox: every payment goes to the operator of the services' settings, the simulator.
  if (accounts.length === 0) {
    return settingsSimulator && (!requested || requested === 'SIMULATOR')
      ? { kind: 'routed', operator: 'SIMULATOR' }
      : { kind: 'unsupported' };
  }
  if (requested) {
    const named = accounts.find((a) => a.operator === requested);
    return named ? verdict(named) : { kind: 'unsupported' };
  }
  const best = (pool: readonly RoutableAccount[]) => {
    let found: RoutableAccount | null = null;
    let length = 0;
    for (const a of pool) {
      const l = longestPrefix(a, e164);
      if (l > length) {
        found = a;
        length = l;
      }
    }
    return found;
  };
  const match = best(accounts.filter((a) => a.enabled)) ?? best(accounts.filter((a) => !a.enabled));
  return match ? verdict(match) : { kind: 'unsupported' };
}

/** A prefix as stored: "+" and 3 to 15 digits. */
export function isOperatorPrefix(p: string): boolean {
  return /^\+[1-9]\d{2,14}$/.test(p);
}

/**
 * The operators a customer may pick by name on a payment link's page: those with an account that
 * takes payments now and serves no prefix (Wave: every number of its countries, reached only when
 * named). Every other number goes where routeOperator sends it. Live: never the simulator.
 */
export function operatorsByNameOnly(accounts: readonly RoutableAccount[], mode: DeploymentMode = 'sandbox'): string[] {
  return accounts
    .filter((a) => a.enabled && !a.down && a.prefixes.length === 0 && !(mode === 'live' && a.simulated))
    .map((a) => a.operator);
}
