import {
  common,
  Joi,
  masterKey,
  nodeEnv,
  parseEnv as parseWithSchema,
  parseSecondsList,
  referenceCache,
  relay,
  secondsList,
  type CommonEnv,
  type NodeEnvEnv,
  type ReferenceCacheEnv,
  type RelayEnv,
} from '@mm/config';

export interface WebhookDispatcherEnv extends CommonEnv, NodeEnvEnv, RelayEnv, ReferenceCacheEnv {
  MASTER_KEY: string;
  /** Delays (seconds) before each retry, as configured: decisions 9's 1m, 5m, 15m, 1h, 6h, 24h. */
  WEBHOOK_RETRY_SCHEDULE_S: string;
  /** The same schedule in milliseconds: retry n waits retryScheduleMs[n - 1] after attempt n failed. */
  retryScheduleMs: number[];
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean;
  WEBHOOK_DISPATCHER_PORT: number;
  WEBHOOK_CONCURRENCY: number;
}

const schema = Joi.object({
  ...common,
  ...nodeEnv,
  ...masterKey,
  // Decimals are allowed so that tests can run the whole schedule in milliseconds.
  WEBHOOK_RETRY_SCHEDULE_S: secondsList().default('60,300,900,3600,21600,86400'),
  // Decisions 9: a 2xx within 10 s is a success.
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(1).default(10_000),
  // Off in production: the dispatcher must not become a way into our own network.
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: Joi.boolean().truthy('1').falsy('0').default(false),
  // Port 0 picks a free port (tests).
  WEBHOOK_DISPATCHER_PORT: Joi.number().port().default(3005),
  ...relay,
  ...referenceCache,
  WEBHOOK_CONCURRENCY: Joi.number().integer().min(1).max(1000).default(20),
});

/** Parses the dispatcher's environment once at boot; throws one error naming every bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv): WebhookDispatcherEnv {
  const raw = parseWithSchema<Omit<WebhookDispatcherEnv, 'retryScheduleMs'>>(schema, source);
  return { ...raw, retryScheduleMs: parseSecondsList(raw.WEBHOOK_RETRY_SCHEDULE_S) };
}
