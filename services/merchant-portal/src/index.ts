/**
 * The merchant portal, under construction: its sign-in (two steps, TOTP and recovery codes), its role
 * guard and its language choice exist and are tested; the HTTP app, pages and wiring come next (README).
 */
export { checkPasswordStep, checkSecondFactorStep, totpBinding, type SignInDeps } from './use-cases/sign-in.js';
export { loadUser, requirePermission, requireSignIn, sessionHolds } from './auth/guard.js';
export { localeOf, LOCALES, type Locale } from './i18n/locale.js';
export { t } from './i18n/messages.js';
