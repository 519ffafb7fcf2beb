import {
  common,
  Joi,
  nodeEnv,
  operator,
  parseEnv as parse,
  relay,
  secondsList,
  type CommonEnv,
  type NodeEnvEnv,
  type OperatorEnv,
  type RelayEnv,
} from '@mm/config';

export interface BridgeEnv extends CommonEnv, NodeEnvEnv, OperatorEnv, RelayEnv {
  OPERATOR_BRIDGE_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never reachable by the operator. */
  OPERATOR_BRIDGE_INTERNAL_PORT: number;
  /** Base URL the operator calls back (this service's callback route, as the operator reaches it). */
  OPERATOR_CALLBACK_BASE_URL: string;
  /** The gateway's public base URL: a redirect operator sends the customer back to its payment page. */
  PUBLIC_BASE_URL: string;
  CASHIN_CONFIRMATION_TIMEOUT_S: number;
  /** Delays after PENDING at which the operator is asked for the status, in case its callback was lost. */
  CASHIN_STATUS_POLL_S: string;
  BRIDGE_CONCURRENCY: number;
  /**
   * When each enabled operator account's previous business day is reconciled: a cron pattern read in UTC
   * (one BullMQ job scheduler per account); empty: none, and the schedulers an earlier start left are removed.
   */
  RECONCILIATION_CRON: string;
}

/** Five fields (minute hour day-of-month month day-of-week), or six with seconds first; BullMQ reads them. */
const CRON = /^\s*[0-9*?LW#,/A-Za-z-]+(\s+[0-9*?LW#,/A-Za-z-]+){4,5}\s*$/;

const schema = Joi.object<BridgeEnv>({
  ...common,
  ...nodeEnv,
  ...operator,
  ...relay,
  OPERATOR_BRIDGE_PORT: Joi.number().port().default(3002),
  OPERATOR_BRIDGE_INTERNAL_PORT: Joi.number().port().default(3102),
  OPERATOR_CALLBACK_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:3002'),
  PUBLIC_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:3000'),
  // Decimals allowed so tests can expire in milliseconds.
  CASHIN_CONFIRMATION_TIMEOUT_S: Joi.number().positive().default(300),
  CASHIN_STATUS_POLL_S: secondsList().allow('').default('60,150'),
  BRIDGE_CONCURRENCY: Joi.number().integer().min(1).default(20),
  RECONCILIATION_CRON: Joi.string().trim().allow('').pattern(CRON).default('30 1 * * *').messages({
    'string.pattern.base':
      '"RECONCILIATION_CRON" must be a cron pattern of 5 fields (minute hour day month weekday), or 6 with seconds first, or empty',
  }),
});

export function parseEnv(source: NodeJS.ProcessEnv): BridgeEnv {
  return parse(schema, source);
}
