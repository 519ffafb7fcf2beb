import {
  common,
  Joi,
  nodeEnv,
  operator,
  parseEnv as parse,
  relay,
  type CommonEnv,
  type NodeEnvEnv,
  type OperatorEnv,
  type RelayEnv,
} from '@mm/config';

export interface RefundEnv extends CommonEnv, NodeEnvEnv, OperatorEnv, RelayEnv {
  REFUND_WORKER_PORT: number;
  /** Jobs one process runs at once (each mostly waits on the operator). */
  REFUND_CONCURRENCY: number;
}

const schema = Joi.object<RefundEnv>({
  ...common,
  ...nodeEnv,
  ...operator,
  ...relay,
  REFUND_WORKER_PORT: Joi.number().port().default(3007),
  REFUND_CONCURRENCY: Joi.number().integer().min(1).max(1000).default(10),
});

export function parseEnv(source: NodeJS.ProcessEnv): RefundEnv {
  return parse(schema, source);
}
