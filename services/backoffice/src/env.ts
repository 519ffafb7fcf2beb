import {
  common,
  DEV_SESSION_SECRET,
  Joi,
  mail,
  masterKey,
  nodeEnv,
  parseEnv as parse,
  readReplica,
  type CommonEnv,
  type MailEnv,
  type NodeEnvEnv,
  type ReadReplicaEnv,
  webApp,
  type WebAppEnv,
} from '@mm/config';

export interface BackofficeEnv extends CommonEnv, MailEnv, NodeEnvEnv, ReadReplicaEnv, WebAppEnv {
  BACKOFFICE_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never exposed to staff or anyone else. */
  BACKOFFICE_INTERNAL_PORT: number;
  /**
   * Seals the secrets of the API keys issued here. Required, with no development default: it must be the
   * gateway's key, or the gateway could not open the secrets of keys created in the back-office.
   */
  MASTER_KEY: string;
  /**
   * The /metrics URLs of the processes that call the operators (bridge, expiry worker, refund worker: their
   * internal ports), comma-separated: /operators scrapes them on each load for its Health column. Empty
   * (the default): no call figures, only the database's.
   */
  OPERATOR_METRICS_URLS: string;
  /** How long /operators waits for each of them. */
  OPERATOR_METRICS_TIMEOUT_MS: number;
}

/** Development only: anyone who reads it could forge cookies; production refuses it (@mm/config's published secrets). */
export { DEV_SESSION_SECRET };

const schema = Joi.object<BackofficeEnv>({
  ...common,
  ...readReplica,
  ...mail,
  ...masterKey,
  ...nodeEnv,
  BACKOFFICE_PORT: Joi.number().port().default(3001),
  BACKOFFICE_INTERNAL_PORT: Joi.number().port().default(3101),
  ...webApp,
  OPERATOR_METRICS_URLS: Joi.string()
    .allow('')
    .default('')
    .custom((value: string, helpers) => {
      const bad = value
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u !== '' && !/^https?:\/\/[^\s/]+(\/\S*)?$/.test(u));
      return bad.length > 0
        ? helpers.message({ custom: `OPERATOR_METRICS_URLS: not http(s) URLs: ${bad.join(', ')}` })
        : value;
    }),
  OPERATOR_METRICS_TIMEOUT_MS: Joi.number().integer().min(50).max(10_000).default(1000),
});

export function parseEnv(source: NodeJS.ProcessEnv): BackofficeEnv {
  return parse(schema, source);
}
