import Joi from 'joi';
import { DEV_SESSION_SECRET } from './published-secrets.js';

/**
 * Values of the `webApp` fragment: the settings of a signed-in web app (the back-office and the merchant
 * portal), the same names and defaults in both so an operator of the service learns them once.
 */
export interface WebAppEnv {
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
   * The session cookie only over HTTPS. On by default in production, where the app is always behind TLS
   * (behind a TLS-terminating proxy too: with TRUST_PROXY the proxied request counts as HTTPS). Turning
   * it off in production is for a plain-HTTP setup on purpose (a local compose).
   */
  SECURE_COOKIES: boolean;
  /** Strict-Transport-Security on every response; same default and off switch as SECURE_COOKIES. */
  HSTS: boolean;
  /** Behind a TLS-terminating proxy: trust its X-Forwarded-* (client IP in the audit log, secure cookies). */
  TRUST_PROXY: boolean;
}

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

/** Needs the `nodeEnv` fragment next to it (production requires its own SESSION_SECRET). */
export const webApp = {
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
};
