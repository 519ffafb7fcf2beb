import { common, Joi, operator, parseEnv as parseWithSchema } from '@mm/config';
import { fakeOperatorEnv, recordsDirOf } from '@mm/fake-operator';

export interface SimulatorEnv {
  port: number;
  apiToken: string;
  sandboxToken: string;
  callbackSecret: string;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  hangMs: number;
  /** Where the simulator keeps its records across restarts; null: in memory only. */
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
  // SIM_OUTCOME_DELAY_MS, SIM_LATE_CONFIRM_DELAY_MS, OPERATOR_RECORDS_DIR: the contract mocks read them too.
  ...fakeOperatorEnv,
  SIM_HANG_MS: ms().default(60_000),
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
    recordsDir: recordsDirOf(env.OPERATOR_RECORDS_DIR),
    logLevel: env.LOG_LEVEL,
  };
}
