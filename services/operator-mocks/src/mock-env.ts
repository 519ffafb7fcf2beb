import { common, Joi, parseEnv as parseWithSchema } from '@mm/config';
import { fakeOperatorEnv, recordsDirOf } from '@mm/fake-operator';
import type { OperatorMocksOptions } from './operator-mocks.js';

/** What the contract mocks' process runs with (`src/main.ts`). */
export type MockEnv = Required<Omit<OperatorMocksOptions, 'host' | 'log'>> & { logLevel: string };

const port = (p: number) => Joi.number().port().default(p);

/** The mocks' ports when nothing else is said (docs/operators-reference.md, the README's demo tables). */
export const DEFAULT_MOCK_PORTS: OperatorMocksOptions['ports'] = {
  mtnCi: 3011,
  mtnCm: 3012,
  orangeWebpay: 3013,
  orangeMp: 3014,
  wave: 3015,
};

// Whether the mocks run at all (OPERATOR_MOCKS) is pnpm start's choice, which then starts this process or not.
const schema = Joi.object({
  MOCK_MTN_CI_PORT: port(DEFAULT_MOCK_PORTS.mtnCi),
  MOCK_MTN_CM_PORT: port(DEFAULT_MOCK_PORTS.mtnCm),
  MOCK_ORANGE_WEBPAY_PORT: port(DEFAULT_MOCK_PORTS.orangeWebpay),
  MOCK_ORANGE_MP_PORT: port(DEFAULT_MOCK_PORTS.orangeMp),
  MOCK_WAVE_PORT: port(DEFAULT_MOCK_PORTS.wave),
  // Wave posts every event of a wallet to the one URL registered for it: the bridge's route of the Wave account.
  MOCK_WAVE_WEBHOOK_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .allow('')
    .default('http://127.0.0.1:3002/operator/callbacks/wave/ci'),
  // false (the demo): a person pays on Wave's launch page; true (the chaos suite): outcomes by number, on their own.
  MOCK_WAVE_AUTOPAY: Joi.string().valid('true', 'false').default('false'),
  // The bridge's own setting, with its default: the demo MTN API users are registered for its host.
  OPERATOR_CALLBACK_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:3002'),
  // The simulator's delays and records directory, under its names: pnpm start gives both processes one value.
  ...fakeOperatorEnv,
  LOG_LEVEL: common.LOG_LEVEL,
});

export function parseMockEnv(source: NodeJS.ProcessEnv): MockEnv {
  const env = parseWithSchema<Record<string, string | number | undefined>>(schema, source);
  return {
    ports: {
      mtnCi: env.MOCK_MTN_CI_PORT as number,
      mtnCm: env.MOCK_MTN_CM_PORT as number,
      orangeWebpay: env.MOCK_ORANGE_WEBPAY_PORT as number,
      orangeMp: env.MOCK_ORANGE_MP_PORT as number,
      wave: env.MOCK_WAVE_PORT as number,
    },
    waveWebhookUrl: (env.MOCK_WAVE_WEBHOOK_URL as string) || null,
    waveAutoPay: env.MOCK_WAVE_AUTOPAY === 'true',
    providerCallbackHost: new URL(env.OPERATOR_CALLBACK_BASE_URL as string).hostname,
    outcomeDelayMs: env.SIM_OUTCOME_DELAY_MS as number,
    lateConfirmDelayMs: env.SIM_LATE_CONFIRM_DELAY_MS as number,
    recordsDir: recordsDirOf(env.OPERATOR_RECORDS_DIR as string | undefined),
    logLevel: env.LOG_LEVEL as string,
  };
}
