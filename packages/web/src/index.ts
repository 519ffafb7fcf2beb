/**
 * The web pieces the back-office and the merchant portal share: HTML that escapes by default, the page
 * shell and its CSS, sessions in Redis, CSRF, security headers, same-origin checks, the login throttle
 * and the counted password check. An app keeps its own layout, navigation, permissions and error texts.
 */
export { escapeHtml, html, raw, SafeHtml, type HtmlValue } from './html.js';
export { BASE_CSS, documentShell, type ShellInput } from './page-shell.js';
export { amount, csrfField, jsonBlock, orDash, statusBadge, when } from './format.js';
export { forbidden, notFoundError, PageError } from './page-error.js';
export { nonceOf, requestIdOf } from './locals.js';
export { formField } from './form.js';
export { isUuid, listField, textField } from './query.js';
export { type Cursor, DAY_MS, decodeCursor, encodeCursor, msisdnFilter, utcDay } from './search-form.js';
export { csrfAfterUpload, csrfProtection, csrfToken, isCsrfError } from './csrf.js';
export { HSTS_VALUE, securityHeaders, type SecurityHeaderOptions } from './security-headers.js';
export { requireSameOrigin } from './same-origin.js';
export {
  ANONYMOUS_SESSION_MS,
  destroySession,
  regenerateSession,
  saveSession,
  sessionKeyPrefix,
  sessionMiddleware,
  type SessionOptions,
} from './session.js';
export { sessionRedisOf, type SessionRedis } from './session-redis.js';
export { auditsRefusal, LoginThrottle, type Admission, type LoginLimits } from './login-throttle.js';
export { countedPasswordCheck, type PasswordCheck } from './password-check.js';
export { safeNext } from './safe-next.js';
export {
  loginLimitsOf,
  openWebAppBase,
  serveWebApp,
  webAppSettings,
  type ServedWebApp,
  type WebAppBase,
  type WebAppBaseEnv,
  type WebAppBaseOptions,
} from './web-app-base.js';
