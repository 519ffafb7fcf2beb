import { common, Joi, operator, parseEnv as parse } from '@mm/config';

export interface RefundEnv {
  REFUND_WORKER_PORT: number;
  DATABASE_URL: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  LOG_LEVEL: string;
  DB_POOL_SIZE: number;
  OPERATOR: 'simulator';
  OPERATOR_BASE_URL: string;
  OPERATOR_API_TOKEN: string;
  OPERATOR_CALLBACK_SECRET: string;
  OPERATOR_TIMEOUT_MS: number;
  OUTBOX_RELAY_INTERVAL_MS: number;
  OUTBOX_GRACE_MS: number;
}

const schema = Joi.object<RefundEnv>({
  ...common,
  ...operator,
  REFUND_WORKER_PORT: Joi.number().port().default(3007),
  OUTBOX_RELAY_INTERVAL_MS: Joi.number().integer().min(10).default(5000),
  OUTBOX_GRACE_MS: Joi.number().integer().min(0).default(10_000),
});

export function parseEnv(source: NodeJS.ProcessEnv): RefundEnv {
  return parse(schema, source);
}
