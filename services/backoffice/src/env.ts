import { common, Joi, masterKey, nodeEnv, parseEnv as parse, type CommonEnv, type NodeEnvEnv } from '@mm/config';

export interface BackofficeEnv extends CommonEnv, NodeEnvEnv {
  BACKOFFICE_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never exposed to staff or anyone else. */
  BACKOFFICE_INTERNAL_PORT: number;
  /** Signs the session cookie. */
  SESSION_SECRET: string;
  /** Absolute lifetime of a login (a working day by default), enforced on the server. */
  SESSION_TTL_S: number;
  LOGIN_MAX_FAILURES: number;
  LOGIN_LOCKOUT_S: number;
  /** Cookies only over HTTPS: true wherever the back-office is served over TLS. */
  SECURE_COOKIES: boolean;
  /** Behind a TLS-terminating proxy: trust its X-Forwarded-* (client IP in the audit log, secure cookies). */
  TRUST_PROXY: boolean;
  /**
   * Seals the secrets of the API keys issued here. Required, with no development default: it must be the
   * gateway's key, or the gateway could not open the secrets of keys created in the back-office.
   */
  MASTER_KEY: string;
}

/** Development only: anyone who reads this file could forge cookies, so production must set its own. */
export const DEV_SESSION_SECRET = 'mm-backoffice-dev-session-secret-not-for-production';

const schema = Joi.object<BackofficeEnv>({
  ...common,
  ...masterKey,
  ...nodeEnv,
  BACKOFFICE_PORT: Joi.number().port().default(3001),
  BACKOFFICE_INTERNAL_PORT: Joi.number().port().default(3101),
  SESSION_SECRET: Joi.string().when('NODE_ENV', {
    is: 'production',
    then: Joi.string().min(32).invalid(DEV_SESSION_SECRET).required(),
    otherwise: Joi.string().min(16).default(DEV_SESSION_SECRET),
  }),
  SESSION_TTL_S: Joi.number().integer().min(60).default(28_800),
  LOGIN_MAX_FAILURES: Joi.number().integer().min(1).default(5),
  LOGIN_LOCKOUT_S: Joi.number().integer().min(1).default(900),
  SECURE_COOKIES: Joi.boolean().default(false),
  TRUST_PROXY: Joi.boolean().default(false),
});

export function parseEnv(source: NodeJS.ProcessEnv): BackofficeEnv {
  return parse(schema, source);
}
