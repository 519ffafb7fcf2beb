import Joi from 'joi';

export interface SimulatorEnv {
  port: number;
  apiToken: string;
  callbackSecret: string;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  hangMs: number;
}

const ms = () => Joi.number().integer().min(0);

const schema = Joi.object({
  OPERATOR_SIMULATOR_PORT: Joi.number().port().default(3003),
  OPERATOR_API_TOKEN: Joi.string().min(1).default('sim-token'),
  OPERATOR_CALLBACK_SECRET: Joi.string().min(1).default('sim-callback-secret'),
  SIM_OUTCOME_DELAY_MS: ms().default(2000),
  // Past the default 300 s confirmation timeout, so a 09 number lands on an EXPIRED transaction.
  SIM_LATE_CONFIRM_DELAY_MS: ms().default(330_000),
  SIM_HANG_MS: ms().default(60_000),
}).unknown(true);

/** Parses the simulator's environment once at boot; throws with every problem listed. */
export function parseEnv(source: NodeJS.ProcessEnv): SimulatorEnv {
  const { value, error } = schema.validate(source, { abortEarly: false, convert: true });
  if (error) throw new Error(`invalid operator-simulator environment: ${error.message}`);
  return {
    port: value.OPERATOR_SIMULATOR_PORT,
    apiToken: value.OPERATOR_API_TOKEN,
    callbackSecret: value.OPERATOR_CALLBACK_SECRET,
    outcomeDelayMs: value.SIM_OUTCOME_DELAY_MS,
    lateConfirmDelayMs: value.SIM_LATE_CONFIRM_DELAY_MS,
    hangMs: value.SIM_HANG_MS,
  };
}
