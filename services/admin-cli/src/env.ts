import { common, DEV_MASTER_KEY, Joi, parseEnv as parse } from '@mm/config';

export interface AdminEnv {
  NODE_ENV: string;
  DATABASE_URL: string;
  MASTER_KEY: string;
  DEMO_WEBHOOK_URL: string;
}

const schema = Joi.object<AdminEnv>({
  DATABASE_URL: common.DATABASE_URL,
  NODE_ENV: Joi.string().default('development'),
  MASTER_KEY: Joi.string().when('NODE_ENV', { is: 'production', then: Joi.required(), otherwise: Joi.optional().default(DEV_MASTER_KEY) }),
  DEMO_WEBHOOK_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default('http://127.0.0.1:3004/webhooks'),
});

export function parseEnv(source: NodeJS.ProcessEnv): AdminEnv {
  return parse(schema, source);
}
