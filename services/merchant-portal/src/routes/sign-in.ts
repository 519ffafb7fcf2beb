/**
 * GET/POST /login, GET/POST /login/code, POST /logout, POST /language: the routes reachable without a
 * session (with /health). The sign-in is two steps; the session id is renewed once both are passed.
 */
import express, { type Request, type Response, type Router } from 'express';
import Joi from 'joi';
import { recordAudit } from '@mm/db/staff';
import type { Counter } from '@mm/observability';
import { ANONYMOUS_SESSION_MS, csrfToken, destroySession, regenerateSession, safeNext, saveSession } from '@mm/web';
import type { MerchantUserAccount } from '@mm/db/merchant-users';
import { userOrNull } from '../auth/guard.js';
import { SECOND_FACTOR_MAX_FAILURES, SECOND_FACTOR_WINDOW_MS, SESSION_COOKIE } from '../auth/session.js';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { isLocale, LOCALE_COOKIE } from '../i18n/locale.js';
import { t } from '../i18n/messages.js';
import { linkMessages } from '../i18n/team.js';
import { checkPasswordStep, checkSecondFactorStep, type SignInDeps } from '../use-cases/sign-in.js';
import { renderPage } from '../views/render.js';
import { secondFactorView, signInView, type SignInView } from '../views/sign-in.js';

export interface SignInRouterDeps extends SignInDeps {
  attempts: Counter<'outcome'>;
}

const passwordForm = Joi.object<{ email: string; password: string }>({
  email: Joi.string().trim().max(254).required(),
  password: Joi.string().max(1024).required(),
}).unknown(true);

const codeForm = Joi.object<{ code: string }>({ code: Joi.string().trim().max(32).required() }).unknown(true);

function forgetPending(req: Request): void {
  delete req.session.pendingUserId;
  delete req.session.pendingAt;
  delete req.session.pendingNext;
  delete req.session.pendingFailures;
}

export function signInRouter(deps: SignInRouterDeps): Router {
  const router = express.Router();

  const show = (req: Request, res: Response, status: number, view: Omit<SignInView, 'csrfToken' | 'locale'>) => {
    // The anonymous session only carries the form's CSRF token: keep it short-lived.
    req.session.cookie.maxAge = ANONYMOUS_SESSION_MS;
    const locale = localeOfResponse(res);
    renderPage(req, res, {
      status,
      title: t(locale).signIn,
      body: signInView({ ...view, locale, csrfToken: csrfToken(req) }),
    });
  };
  const showCode = (req: Request, res: Response, status: number, error?: string) => {
    const locale = localeOfResponse(res);
    renderPage(req, res, {
      status,
      title: t(locale).twoFactorTitle,
      body: secondFactorView({ locale, csrfToken: csrfToken(req), ...(error ? { error } : {}) }),
    });
  };
  const signedIn = async (req: Request, res: Response, user: MerchantUserAccount, next: string | undefined) => {
    // A new session id at sign-in: an id planted before (session fixation) is worth nothing after it.
    await regenerateSession(req);
    req.session.merchantUserId = user.id;
    req.session.loginAt = deps.now();
    await saveSession(req);
    res.redirect(303, next ?? '/');
  };

  router.get('/login', (req, res) => {
    const next = safeNext(req.query.next);
    if (userOrNull(res)) return res.redirect(303, next ?? '/');
    const m = t(localeOfResponse(res));
    const notice =
      req.query.signed_out === '1'
        ? m.signedOut
        : req.query.reset === '1'
          ? linkMessages(localeOfResponse(res)).resetDone
          : undefined;
    show(req, res, 200, { next, ...(notice ? { notice } : {}) });
  });

  router.post('/login', async (req, res) => {
    const m = t(localeOfResponse(res));
    const next = safeNext((req.body as Record<string, unknown> | undefined)?.next);
    const { value, error } = passwordForm.validate(req.body ?? {});
    if (error) return show(req, res, 400, { next, error: m.badCredentials });

    const outcome = await checkPasswordStep(deps, value, requestContext(req, res));
    deps.attempts.inc({ outcome: outcome.kind });
    if (outcome.kind === 'throttled') {
      res.set('Retry-After', String(outcome.retryAfterS));
      return show(req, res, 429, { next, email: value.email, error: m.throttled });
    }
    if (outcome.kind === 'refused') return show(req, res, 401, { next, email: value.email, error: m.badCredentials });
    if (outcome.kind === 'signed_in') return signedIn(req, res, outcome.user, next);
    req.session.pendingUserId = outcome.userId;
    req.session.pendingAt = deps.now();
    req.session.pendingFailures = 0;
    if (next) req.session.pendingNext = next;
    else delete req.session.pendingNext;
    await saveSession(req);
    res.redirect(303, '/login/code');
  });

  const pendingOf = (req: Request): string | null => {
    const { pendingUserId, pendingAt } = req.session;
    if (!pendingUserId || pendingAt === undefined || deps.now() - pendingAt > SECOND_FACTOR_WINDOW_MS) return null;
    return pendingUserId;
  };

  router.get('/login/code', (req, res) => {
    if (!pendingOf(req)) return res.redirect(303, '/login');
    showCode(req, res, 200);
  });

  router.post('/login/code', async (req, res) => {
    const m = t(localeOfResponse(res));
    const userId = pendingOf(req);
    if (!userId) {
      forgetPending(req);
      return show(req, res, 401, { error: m.codeExpired });
    }
    const { value, error } = codeForm.validate(req.body ?? {});
    const user = error ? null : await checkSecondFactorStep(deps, userId, value.code, requestContext(req, res));
    deps.attempts.inc({ outcome: user ? 'second_factor' : 'second_factor_refused' });
    if (user) return signedIn(req, res, user, req.session.pendingNext);
    // A code is six digits: past a few wrong ones the password is asked for again, and that is throttled.
    const failures = (req.session.pendingFailures ?? 0) + 1;
    if (failures >= SECOND_FACTOR_MAX_FAILURES) {
      forgetPending(req);
      return show(req, res, 401, { error: m.codeExpired });
    }
    req.session.pendingFailures = failures;
    showCode(req, res, 401, m.badCode);
  });

  router.post('/logout', async (req, res) => {
    const user = userOrNull(res);
    if (user) {
      await recordAudit(deps.db, {
        staffId: null,
        actor: user.email,
        action: 'portal.logout',
        targetType: 'merchant_user',
        targetId: user.id,
        merchantId: user.merchantId,
        merchantUserId: user.id,
        ...requestContext(req, res),
      });
    }
    await destroySession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.redirect(303, '/login?signed_out=1');
  });

  router.post('/language', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const back = (typeof body.back === 'string' && /^\/(?![/\\])[^\s\\]*$/.test(body.back) && body.back) || '/';
    if (!isLocale(body.lang)) return res.redirect(303, back);
    // Not HttpOnly-sensitive (it holds a language), but kept HttpOnly and SameSite like every cookie of ours.
    res.cookie(LOCALE_COOKIE, body.lang, {
      maxAge: 365 * 24 * 3600 * 1000,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.secure,
      path: '/',
    });
    res.redirect(303, back);
  });

  return router;
}
