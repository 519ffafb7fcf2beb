import {
  common,
  Joi,
  nodeEnv,
  operator,
  parseEnv as parse,
  relay,
  retention,
  type CommonEnv,
  type NodeEnvEnv,
  type OperatorEnv,
  type RelayEnv,
  type RetentionEnv,
} from '@mm/config';

export interface ExpiryEnv extends CommonEnv, NodeEnvEnv, OperatorEnv, RelayEnv, RetentionEnv {
  EXPIRY_WORKER_PORT: number;
  /** Jobs one process runs at once (each mostly waits on the operator). */
  EXPIRY_CONCURRENCY: number;
}

const schema = Joi.object<ExpiryEnv>({
  ...common,
  ...nodeEnv,
  ...operator,
  ...relay,
  ...retention,
  EXPIRY_WORKER_PORT: Joi.number().port().default(3006),
  EXPIRY_CONCURRENCY: Joi.number().integer().min(1).max(1000).default(20),
});

export function parseEnv(source: NodeJS.ProcessEnv): ExpiryEnv {
  return parse(schema, source);
}
