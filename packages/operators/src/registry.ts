import type { OperatorAdapter } from './operator-adapter.js';
import { SimulatorOperatorAdapter, type SimulatorAdapterConfig } from './simulator/client.js';

/** One line per operator: its name and how to build its adapter from its config. */
const factories = {
  simulator: (config: SimulatorAdapterConfig) => new SimulatorOperatorAdapter(config),
} satisfies Record<string, (config: never) => OperatorAdapter>;

export type OperatorName = keyof typeof factories;
export const OPERATOR_NAMES = Object.keys(factories) as OperatorName[];

/** `{ operator: name }` plus that operator's own config, derived from the factories so nothing is listed twice. */
export type OperatorConfig = {
  [K in OperatorName]: { operator: K } & Parameters<(typeof factories)[K]>[0];
}[OperatorName];

export function createOperatorAdapter(config: OperatorConfig): OperatorAdapter {
  const { operator, ...rest } = config;
  const factory = factories[operator] as ((c: typeof rest) => OperatorAdapter) | undefined;
  if (!factory) throw new Error(`unknown operator "${String(operator)}"; known: ${OPERATOR_NAMES.join(', ')}`);
  return factory(rest);
}

/** The operator settings every service reads from its environment (the `operator` fragment of @mm/config). */
export interface OperatorSettings {
  OPERATOR: OperatorName;
  OPERATOR_BASE_URL: string;
  OPERATOR_API_TOKEN: string;
  OPERATOR_CALLBACK_SECRET: string;
  OPERATOR_TIMEOUT_MS: number;
}

export function operatorAdapterFromEnv(env: OperatorSettings): OperatorAdapter {
  return createOperatorAdapter({
    operator: env.OPERATOR,
    baseUrl: env.OPERATOR_BASE_URL,
    apiToken: env.OPERATOR_API_TOKEN,
    callbackSecret: env.OPERATOR_CALLBACK_SECRET,
    timeoutMs: env.OPERATOR_TIMEOUT_MS,
  });
}
