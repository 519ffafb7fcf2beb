import {
  common,
  DEV_SESSION_SECRET,
  Joi,
  masterKey,
  nodeEnv,
  parseEnv as parse,
  readReplica,
  type CommonEnv,
  type NodeEnvEnv,
  type ReadReplicaEnv,
} from '@mm/config';

export interface BackofficeEnv extends CommonEnv, NodeEnvEnv, ReadReplicaEnv {
  BACKOFFICE_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never exposed to staff or anyone else. */
  BACKOFFICE_INTERNAL_PORT: number;
  /** Signs the session cookie. */
  SESSION_SECRET: string;
  /** Absolute lifetime of a login (a working day by default), enforced on the server. */
  SESSION_TTL_S: number;
  /** Attempts an email may have counted (since its last success) before it is locked. */
  LOGIN_MAX_FAILURES: number;
  /** The lock's length, from the attempt that set it; refused attempts do not extend it. */
  LOGIN_LOCKOUT_S: number;
  /** Login attempts one client address (an IPv6 /64) may have counted per window, successes given back. */
  LOGIN_MAX_ATTEMPTS_PER_IP: number;
  /** That window, from the address's first counted attempt. */
  LOGIN_IP_WINDOW_S: number;
  /**
   * The session cookie only over HTTPS. On by default in production, where the back-office is always
   * behind TLS (behind a TLS-terminating proxy too: with TRUST_PROXY the proxied request counts as
   * HTTPS). Turning it off in production is for a plain-HTTP setup on purpose (a local compose).
   */
  SECURE_COOKIES: boolean;
  /** Strict-Transport-Security on every response; same default and off switch as SECURE_COOKIES. */
  HSTS: boolean;
  /** Behind a TLS-terminating proxy: trust its X-Forwarded-* (client IP in the audit log, secure cookies). */
  TRUST_PROXY: boolean;
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

/**
 * True by default in production, false elsewhere; an explicit value always wins. Safe by default: a
 * production deployment that forgets the variable gets the secure behaviour, not the weak one.
 */
function secureInProduction() {
  return Joi.boolean().when('NODE_ENV', {
    is: 'production',
    then: Joi.boolean().default(true),
    otherwise: Joi.boolean().default(false),
  });
}

const schema = Joi.object<BackofficeEnv>({
  ...common,
  ...readReplica,
  ...masterKey,
  ...nodeEnv,
  BACKOFFICE_PORT: Joi.number().port().default(3001),
  BACKOFFICE_INTERNAL_PORT: Joi.number().port().default(3101),
  SESSION_SECRET: Joi.string().when('NODE_ENV', {
    is: 'production',
    then: Joi.string().min(32).required(),
    otherwise: Joi.string().min(16).default(DEV_SESSION_SECRET),
  }),
  SESSION_TTL_S: Joi.number().integer().min(60).default(28_800),
  LOGIN_MAX_FAILURES: Joi.number().integer().min(1).default(5),
  LOGIN_LOCKOUT_S: Joi.number().integer().min(1).default(900),
  LOGIN_MAX_ATTEMPTS_PER_IP: Joi.number().integer().min(1).default(50),
  LOGIN_IP_WINDOW_S: Joi.number().integer().min(1).default(900),
  SECURE_COOKIES: secureInProduction(),
  HSTS: secureInProduction(),
  TRUST_PROXY: Joi.boolean().default(false),
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
