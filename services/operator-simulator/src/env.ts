import path from 'node:path';
import { common, Joi, operator, parseEnv as parseWithSchema } from '@mm/config';

export interface SimulatorEnv {
  port: number;
  apiToken: string;
  sandboxToken: string;
  callbackSecret: string;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  hangMs: number;
  /** Where the simulator and the contract mocks keep their records across restarts; null: in memory only. */
  recordsDir: string | null;
  logLevel: string;
}

const ms = () => Joi.number().integer().min(0);

// Token and secret come from the shared operator fragment so the bridge's defaults and ours cannot drift apart.
const schema = Joi.object({
  OPERATOR_SIMULATOR_PORT: Joi.number().port().default(3003),
  OPERATOR_API_TOKEN: operator.OPERATOR_API_TOKEN,
  OPERATOR_CALLBACK_SECRET: operator.OPERATOR_CALLBACK_SECRET,
  // No default: a published one would open the sandbox to anyone (pnpm start makes one per run).
  SIM_SANDBOX_TOKEN: Joi.string().min(16).required(),
  SIM_OUTCOME_DELAY_MS: ms().default(2000),
  // Past the default 300 s confirmation timeout, so a 09 number lands on an EXPIRED transaction.
  SIM_LATE_CONFIRM_DELAY_MS: ms().default(330_000),
  SIM_HANG_MS: ms().default(60_000),
  // Unset (tests, containers): records in memory, each run starts with none. pnpm start sets a directory of the repository.
  OPERATOR_RECORDS_DIR: Joi.string().allow(''),
  LOG_LEVEL: common.LOG_LEVEL,
});

/** Parses the simulator's environment once at boot; throws listing every bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv): SimulatorEnv {
  const env = parseWithSchema(schema, source);
  return {
    port: env.OPERATOR_SIMULATOR_PORT,
    apiToken: env.OPERATOR_API_TOKEN,
    sandboxToken: env.SIM_SANDBOX_TOKEN,
    callbackSecret: env.OPERATOR_CALLBACK_SECRET,
    outcomeDelayMs: env.SIM_OUTCOME_DELAY_MS,
    lateConfirmDelayMs: env.SIM_LATE_CONFIRM_DELAY_MS,
    hangMs: env.SIM_HANG_MS,
    recordsDir: env.OPERATOR_RECORDS_DIR ? path.resolve(env.OPERATOR_RECORDS_DIR) : null,
    logLevel: env.LOG_LEVEL,
  };
}
