import { common, Joi, operator, parseEnv as parse } from '@mm/config';

export interface BridgeEnv {
  OPERATOR_BRIDGE_PORT: number;
  /** Base URL the operator calls back (this service's callback route, as the operator reaches it). */
  OPERATOR_CALLBACK_BASE_URL: string;
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
  CASHIN_CONFIRMATION_TIMEOUT_S: number;
  OUTBOX_RELAY_INTERVAL_MS: number;
  OUTBOX_GRACE_MS: number;
  BRIDGE_CONCURRENCY: number;
}

const schema = Joi.object<BridgeEnv>({
  ...common,
  ...operator,
  OPERATOR_BRIDGE_PORT: Joi.number().port().default(3002),
  OPERATOR_CALLBACK_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default('http://127.0.0.1:3002'),
  // Decimals allowed so tests can expire in milliseconds.
  CASHIN_CONFIRMATION_TIMEOUT_S: Joi.number().positive().default(300),
  OUTBOX_RELAY_INTERVAL_MS: Joi.number().integer().min(10).default(5000),
  OUTBOX_GRACE_MS: Joi.number().integer().min(0).default(10_000),
  BRIDGE_CONCURRENCY: Joi.number().integer().min(1).default(20),
});

export function parseEnv(source: NodeJS.ProcessEnv): BridgeEnv {
  return parse(schema, source);
}
