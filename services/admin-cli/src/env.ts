import {
  common,
  DEV_MASTER_KEY,
  Joi,
  operator,
  parseEnv as parse,
  SIMULATOR_API_TOKEN,
  SIMULATOR_CALLBACK_SECRET,
  type OperatorEnv,
} from '@mm/config';

/**
 * The operator settings (the `operator` fragment): what `reconcile` and `reconcile:import` build the adapter
 * of a SIMULATOR account without a base URL or credentials of its own from, as the services do. The
 * simulator's token and callback secret have their published defaults outside production only: in
 * production every other command (`migrate` first) runs without them, and such a SIMULATOR account cannot
 * be reconciled until they are set.
 */
type AdminOperatorEnv = Omit<OperatorEnv, 'MASTER_KEY' | 'OPERATOR_API_TOKEN' | 'OPERATOR_CALLBACK_SECRET'> & {
  OPERATOR_API_TOKEN?: string;
  OPERATOR_CALLBACK_SECRET?: string;
};

export interface AdminEnv extends AdminOperatorEnv {
  NODE_ENV: string;
  /** What operator accounts may be set to (and what `migrate` leaves enabled): docs/deployment.md. */
  DEPLOYMENT_MODE: 'sandbox' | 'live';
  DATABASE_URL: string;
  /** PostgreSQL itself when DATABASE_URL is a transaction-mode pooler: `migrate` holds a session lock there. */
  DATABASE_DIRECT_URL?: string;
  MASTER_KEY: string;
  DEMO_WEBHOOK_URL: string;
}

const outsideProduction = (value: string) =>
  Joi.string().when('NODE_ENV', { is: 'production', then: Joi.optional(), otherwise: Joi.optional().default(value) });

const schema = Joi.object<AdminEnv>({
  ...operator,
  DEPLOYMENT_MODE: common.DEPLOYMENT_MODE,
  DATABASE_URL: common.DATABASE_URL,
  DATABASE_DIRECT_URL: common.DATABASE_DIRECT_URL,
  NODE_ENV: Joi.string().default('development'),
  MASTER_KEY: Joi.string().when('NODE_ENV', {
    is: 'production',
    then: Joi.required(),
    otherwise: Joi.optional().default(DEV_MASTER_KEY),
  }),
  DEMO_WEBHOOK_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:3004/webhooks'),
  OPERATOR_API_TOKEN: outsideProduction(SIMULATOR_API_TOKEN),
  OPERATOR_CALLBACK_SECRET: outsideProduction(SIMULATOR_CALLBACK_SECRET),
});

export function parseEnv(source: NodeJS.ProcessEnv): AdminEnv {
  return parse(schema, source);
}
