import { Joi, parseEnv as parseWithSchema } from '@mm/config';
import type { OperatorMocksOptions } from './operator-mocks.js';

/** The operators' contract mocks the simulator process runs beside it (`pnpm start`), or none. */
export type MockEnv = { enabled: false } | ({ enabled: true } & Omit<OperatorMocksOptions, 'outcomeDelayMs' | 'lateConfirmDelayMs'>);

const port = (p: number) => Joi.number().port().default(p);

/** The mocks' ports when nothing else is said (docs/operators-reference.md, the README's demo tables). */
export const DEFAULT_MOCK_PORTS: OperatorMocksOptions['ports'] = { mtnCi: 3011, mtnCm: 3012, orangeWebpay: 3013, orangeMp: 3014, wave: 3015 };

const schema = Joi.object({
  // Off unless asked (pnpm start): a simulator started by a test or a container must not take these ports.
  OPERATOR_MOCKS: Joi.string().valid('on', 'off').default('off'),
  MOCK_MTN_CI_PORT: port(DEFAULT_MOCK_PORTS.mtnCi),
  MOCK_MTN_CM_PORT: port(DEFAULT_MOCK_PORTS.mtnCm),
  MOCK_ORANGE_WEBPAY_PORT: port(DEFAULT_MOCK_PORTS.orangeWebpay),
  MOCK_ORANGE_MP_PORT: port(DEFAULT_MOCK_PORTS.orangeMp),
  MOCK_WAVE_PORT: port(DEFAULT_MOCK_PORTS.wave),
  // Wave posts every event of a wallet to the one URL registered for it: the bridge's route of the Wave account.
  MOCK_WAVE_WEBHOOK_URL: Joi.string().uri({ scheme: ['http', 'https'] }).allow('').default('http://127.0.0.1:3002/operator/callbacks/wave/ci'),
  // false (the demo): a person pays on Wave's launch page; true (the chaos suite): outcomes by number, on their own.
  MOCK_WAVE_AUTOPAY: Joi.string().valid('true', 'false').default('false'),
  // The bridge's own setting, with its default: the demo MTN API users are registered for its host.
  OPERATOR_CALLBACK_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default('http://127.0.0.1:3002'),
});

export function parseMockEnv(source: NodeJS.ProcessEnv): MockEnv {
  const env = parseWithSchema<Record<string, string | number>>(schema, source);
  if (env.OPERATOR_MOCKS === 'off') return { enabled: false };
  return {
    enabled: true,
    ports: {
      mtnCi: env.MOCK_MTN_CI_PORT as number, mtnCm: env.MOCK_MTN_CM_PORT as number, orangeWebpay: env.MOCK_ORANGE_WEBPAY_PORT as number,
      orangeMp: env.MOCK_ORANGE_MP_PORT as number, wave: env.MOCK_WAVE_PORT as number,
    },
    waveWebhookUrl: (env.MOCK_WAVE_WEBHOOK_URL as string) || null,
    waveAutoPay: env.MOCK_WAVE_AUTOPAY === 'true',
    providerCallbackHost: new URL(env.OPERATOR_CALLBACK_BASE_URL as string).hostname,
  };
}
