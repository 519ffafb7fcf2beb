import type { OperatorAdapter } from './operator-adapter.js';
import { SimulatorOperatorAdapter } from './simulator/client.js';
import { waveAdapterFromAccount } from './wave/account.js';
import { OrangeWebpayAdapter } from './orange-webpay/client.js';
import { OrangeMpAdapter } from './orange-mp/client.js';
import { MtnMomoAdapter } from './mtn-momo/client.js';
import { mtnMomoConfigFromAccount } from './mtn-momo/account.js';

/**
 * What an operator account (one row of operator_accounts: a country's contract with one operator)
 * gives its adapter: where to call, its secrets (already opened; never logged), its plain settings
 * (target environment, country path, merchant key...) and the bound on each call.
 */
export interface AccountConfig {
  baseUrl: string;
  credentials: Record<string, string>;
  settings: Record<string, unknown>;
  timeoutMs: number;
}

/**
 * One line per operator API: its name (operator_accounts.api) and how to build its adapter from an
 * account. Each factory validates its own credentials and settings and throws naming what is missing.
 */
const factories = {
  simulator: (c: AccountConfig) =>
    new SimulatorOperatorAdapter({
      baseUrl: c.baseUrl,
      apiToken: required(c, 'apiToken'),
      callbackSecret: required(c, 'callbackSecret'),
      timeoutMs: c.timeoutMs,
    }),
  wave: waveAdapterFromAccount,
  'orange-webpay': (c: AccountConfig) =>
    new OrangeWebpayAdapter({
      baseUrl: c.baseUrl,
      clientId: required(c, 'clientId'),
      clientSecret: required(c, 'clientSecret'),
      merchantKey: required(c, 'merchantKey'),
      countryPath: setting(c, 'countryPath'),
      currency: setting(c, 'currency'),
      lang: setting(c, 'lang'),
      timeoutMs: c.timeoutMs,
    }),
  'orange-mp': (c: AccountConfig) =>
    new OrangeMpAdapter({
      baseUrl: c.baseUrl,
      clientId: required(c, 'clientId'),
      clientSecret: required(c, 'clientSecret'),
      xAuthToken: required(c, 'xAuthToken'),
      pin: required(c, 'pin'),
      channelUserMsisdn: requiredSetting(c, 'channelUserMsisdn'),
      timeoutMs: c.timeoutMs,
    }),
  'mtn-momo': (c: AccountConfig) => new MtnMomoAdapter(mtnMomoConfigFromAccount(c)),
} satisfies Record<string, (config: AccountConfig) => OperatorAdapter>;

export type OperatorApi = keyof typeof factories;
export const OPERATOR_APIS = Object.keys(factories) as OperatorApi[];

export function isOperatorApi(api: string): api is OperatorApi {
  return Object.hasOwn(factories, api);
}

export function createAccountAdapter(api: string, config: AccountConfig): OperatorAdapter {
  if (!isOperatorApi(api)) throw new Error(`unknown operator API "${api}"; known: ${OPERATOR_APIS.join(', ')}`);
  return factories[api](config);
}

function required(c: AccountConfig, name: string): string {
  const value = c.credentials[name];
  if (!value) throw new Error(`operator account credentials lack "${name}"`);
  return value;
}

/** An optional plain setting; present but not a non-empty string is a configuration error. */
function setting(c: AccountConfig, name: string): string | undefined {
  const value = c.settings[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '')
    throw new Error(`operator account setting "${name}" must be a non-empty string`);
  return value;
}

function requiredSetting(c: AccountConfig, name: string): string {
  const value = setting(c, name);
  if (value === undefined) throw new Error(`operator account settings lack "${name}"`);
  return value;
}

/** The simulator's settings every service reads from its environment (the `operator` fragment of @mm/config). */
export interface OperatorSettings {
  OPERATOR: 'simulator';
  OPERATOR_BASE_URL: string;
  OPERATOR_API_TOKEN: string;
  OPERATOR_CALLBACK_SECRET: string;
  OPERATOR_TIMEOUT_MS: number;
}

/**
 * The simulator account as the environment describes it: what a SIMULATOR operator account without a
 * base URL or credentials of its own uses (tests and `pnpm start` point every service at their simulator).
 */
export function simulatorConfigFromEnv(env: OperatorSettings): AccountConfig {
  return {
    baseUrl: env.OPERATOR_BASE_URL,
    credentials: { apiToken: env.OPERATOR_API_TOKEN, callbackSecret: env.OPERATOR_CALLBACK_SECRET },
    settings: {},
    timeoutMs: env.OPERATOR_TIMEOUT_MS,
  };
}

export function operatorAdapterFromEnv(env: OperatorSettings): OperatorAdapter {
  return createAccountAdapter('simulator', simulatorConfigFromEnv(env));
}
