import { common, Joi, masterKey, nodeEnv, parseEnv as parse, referenceCache, type CommonEnv, type NodeEnvEnv, type ReferenceCacheEnv } from '@mm/config';

export interface GatewayEnv extends CommonEnv, NodeEnvEnv, ReferenceCacheEnv {
  GATEWAY_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never exposed publicly. */
  GATEWAY_INTERNAL_PORT: number;
  PUBLIC_BASE_URL: string;
  MASTER_KEY: string;
  AUTH_TOLERANCE_S: number;
  CASHIN_ACK_WAIT_MS: number;
  AMOUNT_MIN: number;
  AMOUNT_MAX: number;
  DISBURSEMENT_ENABLED: boolean;
  CASHOUT_APPROVAL_THRESHOLD: number;
  RATE_LIMIT_PER_S: number;
  RATE_LIMIT_BURST: number;
  /** Chaos suite only (NODE_ENV=test): kill -9 after the commit of cash-ins whose merchant_order_id starts with it. */
  CHAOS_KILL_AFTER_COMMIT_PREFIX: string;
}

const schema = Joi.object<GatewayEnv>({
  ...common,
  ...nodeEnv,
  ...masterKey,
  GATEWAY_PORT: Joi.number().port().default(3000),
  GATEWAY_INTERNAL_PORT: Joi.number().port().default(3100),
  PUBLIC_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default('http://127.0.0.1:3000'),
  AUTH_TOLERANCE_S: Joi.number().integer().min(1).default(300),
  // How long POST /cashin waits for the operator's acknowledgement before answering 202 anyway.
  CASHIN_ACK_WAIT_MS: Joi.number().integer().min(0).default(5000),
  AMOUNT_MIN: Joi.number().integer().min(1).default(100),
  AMOUNT_MAX: Joi.number().integer().min(1).default(5_000_000),
  DISBURSEMENT_ENABLED: Joi.boolean().default(false),
  CASHOUT_APPROVAL_THRESHOLD: Joi.number().integer().min(1).default(1_000_000),
  RATE_LIMIT_PER_S: Joi.number().integer().min(1).default(50),
  RATE_LIMIT_BURST: Joi.number().integer().min(1).default(100),
  ...referenceCache,
  CHAOS_KILL_AFTER_COMMIT_PREFIX: Joi.string().allow('').default(''),
});

export function parseEnv(source: NodeJS.ProcessEnv): GatewayEnv {
  const env = parse(schema, source);
  // Anywhere but a test run, the hook would let a crafted merchant_order_id kill the gateway.
  if (source.NODE_ENV !== 'test' && env.CHAOS_KILL_AFTER_COMMIT_PREFIX) {
    throw new Error('CHAOS_KILL_AFTER_COMMIT_PREFIX is a test hook and is refused unless NODE_ENV=test');
  }
  return env;
}
