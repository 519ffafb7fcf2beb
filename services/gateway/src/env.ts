import {
  common,
  Joi,
  masterKey,
  nodeEnv,
  parseEnv as parse,
  paymentRules,
  readReplica,
  referenceCache,
  type CommonEnv,
  type NodeEnvEnv,
  type PaymentRulesEnv,
  type ReadReplicaEnv,
  type ReferenceCacheEnv,
} from '@mm/config';

export interface GatewayEnv extends CommonEnv, NodeEnvEnv, ReferenceCacheEnv, ReadReplicaEnv, PaymentRulesEnv {
  GATEWAY_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never exposed publicly. */
  GATEWAY_INTERNAL_PORT: number;
  PUBLIC_BASE_URL: string;
  MASTER_KEY: string;
  AUTH_TOLERANCE_S: number;
  CASHIN_ACK_WAIT_MS: number;
  RATE_LIMIT_PER_S: number;
  RATE_LIMIT_BURST: number;
  AUTH_FAILURE_LIMIT: number;
  AUTH_FAILURE_WINDOW_S: number;
  /** Payment links' pages: submissions per link, and per client address, per minute. */
  LINK_SUBMIT_PER_LINK_PER_MIN: number;
  LINK_SUBMIT_PER_ADDRESS_PER_MIN: number;
  /** Proxies in front whose X-Forwarded-For is trusted; `true` means one. */
  TRUST_PROXY: number;
  /** Retry-After of a 503 SERVICE_UNAVAILABLE (the database or Redis could not answer in time). */
  SERVICE_UNAVAILABLE_RETRY_AFTER_S: number;
  /** A Redis command not answered within it fails (the replay guard then answers 503, the limiter lets the request through). */
  REDIS_COMMAND_TIMEOUT_MS: number;
  /** Chaos suite only (NODE_ENV=test): kill -9 after the commit of cash-ins whose merchant_order_id starts with it. */
  CHAOS_KILL_AFTER_COMMIT_PREFIX: string;
}

const schema = Joi.object<GatewayEnv>({
  ...common,
  ...readReplica,
  ...nodeEnv,
  ...masterKey,
  GATEWAY_PORT: Joi.number().port().default(3000),
  GATEWAY_INTERNAL_PORT: Joi.number().port().default(3100),
  PUBLIC_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:3000'),
  AUTH_TOLERANCE_S: Joi.number().integer().min(1).default(300),
  // How long POST /cashin waits for the operator's acknowledgement before answering 202 anyway.
  CASHIN_ACK_WAIT_MS: Joi.number().integer().min(0).default(5000),
  // The amount bounds, disbursement and the approval totals: shared with the portal's cash-out form.
  ...paymentRules,
  RATE_LIMIT_PER_S: Joi.number().integer().min(1).default(50),
  RATE_LIMIT_BURST: Joi.number().integer().min(1).default(100),
  // Failed authentications (401) per client address and window, beyond which the address gets 429.
  AUTH_FAILURE_LIMIT: Joi.number().integer().min(1).default(100),
  AUTH_FAILURE_WINDOW_S: Joi.number().integer().min(1).default(60),
  // Each submission of a payment link's page rings a phone: bounded per link and per address.
  LINK_SUBMIT_PER_LINK_PER_MIN: Joi.number().integer().min(1).default(30),
  LINK_SUBMIT_PER_ADDRESS_PER_MIN: Joi.number().integer().min(1).default(10),
  // false (the socket's peer is the client), true (one proxy: the Ingress), or the number of proxies in
  // front. More than there really are would let a client choose its address by sending X-Forwarded-For.
  TRUST_PROXY: Joi.alternatives()
    .try(Joi.boolean(), Joi.number().integer().min(0).max(10))
    .default(0)
    .custom((v: boolean | number) => (v === true ? 1 : v === false ? 0 : v)),
  ...referenceCache,
  // A request's database work is bounded by these (docs/reliability.md, "Bounded answers"): a statement
  // that waits for a lock or runs too long fails and rolls back, where the workers' defaults wait. The
  // connection wait is Prisma's own default, 2 s: under a burst the pool queues, and a shorter wait
  // would refuse requests a moment later would have served.
  DB_CONNECT_TIMEOUT_MS: Joi.number().integer().min(100).default(2000),
  DB_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(0).default(2000),
  DB_LOCK_TIMEOUT_MS: Joi.number().integer().min(0).default(1000),
  SERVICE_UNAVAILABLE_RETRY_AFTER_S: Joi.number().integer().min(1).default(2),
  REDIS_COMMAND_TIMEOUT_MS: Joi.number().integer().min(50).default(1000),
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
