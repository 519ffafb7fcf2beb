import { common, Joi, operator, parseEnv as parse, relay, type CommonEnv, type OperatorEnv, type RelayEnv } from '@mm/config';

export interface RefundEnv extends CommonEnv, OperatorEnv, RelayEnv {
  REFUND_WORKER_PORT: number;
}

const schema = Joi.object<RefundEnv>({
  ...common,
  ...operator,
  ...relay,
  REFUND_WORKER_PORT: Joi.number().port().default(3007),
});

export function parseEnv(source: NodeJS.ProcessEnv): RefundEnv {
  return parse(schema, source);
}
