/** GET/POST /login, POST /logout: the only routes reachable without a login (with /health, /ready, /metrics). */
import express, { type Router } from 'express';
import Joi from 'joi';
import type { Db } from '@mm/db';
import { recordAudit } from '@mm/db/staff';
import type { Counter } from '@mm/observability';
import { requestContext } from '../auth/audit-context.js';
import {
  type LoginThrottle,
  type PasswordCheck,
  csrfToken,
  ANONYMOUS_SESSION_MS,
  destroySession,
  regenerateSession,
  safeNext,
  saveSession,
} from '@mm/web';
import { SESSION_COOKIE } from '../http/session.js';
import { staffOrNull } from '../http/locals.js';
import { logIn } from '../use-cases/log-in.js';
import { loginView, type LoginView } from '../views/login.js';
import { renderPage } from '../views/render.js';

export interface LoginRouterDeps {
  db: Db;
  throttle: LoginThrottle;
  checkPassword: PasswordCheck;
  attempts: Counter<'outcome'>;
  now(): number;
}

const form = Joi.object<{ email: string; password: string; next?: string }>({
  email: Joi.string().trim().max(254).required(),
  password: Joi.string().max(1024).required(),
  next: Joi.string().allow('').max(2000),
}).unknown(true);

function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

export function loginRouter(deps: LoginRouterDeps): Router {
  const router = express.Router();
  // One message for every refusal (unknown email, wrong password, disabled, locked): no enumeration.
  const refused =
    `Incorrect email or password. After ${deps.throttle.maxFailures} failed attempts in a row, ` +
    `logging in to that account is paused for ${duration(deps.throttle.lockoutS)}.`;

  const show = (req: express.Request, res: express.Response, status: number, view: Omit<LoginView, 'csrfToken'>) => {
    // The anonymous session only carries the form's CSRF token: keep it short-lived (see session.ts).
    req.session.cookie.maxAge = ANONYMOUS_SESSION_MS;
    renderPage(req, res, { status, title: 'Log in', body: loginView({ ...view, csrfToken: csrfToken(req) }) });
  };

  router.get('/login', (req, res) => {
    const next = safeNext(req.query.next);
    if (staffOrNull(res)) return res.redirect(303, next ?? '/');
    show(req, res, 200, { next, notice: req.query.logged_out === '1' ? 'You have logged out.' : undefined });
  });

  router.post('/login', async (req, res) => {
    const { value, error } = form.validate(req.body ?? {});
    const next = safeNext((req.body as Record<string, unknown> | undefined)?.next);
    if (error) return show(req, res, 400, { next, error: 'Enter your email and password.' });

    const outcome = await logIn(deps, { email: value.email, password: value.password, ...requestContext(req, res) });
    deps.attempts.inc({ outcome: outcome.ok ? 'success' : outcome.refusal });
    if (!outcome.ok && outcome.refusal === 'throttled') {
      // About the client address, not the account: saying so reveals nothing about who has an account.
      res.set('Retry-After', String(outcome.retryAfterS));
      const minutes = Math.ceil(outcome.retryAfterS / 60);
      return show(req, res, 429, {
        next,
        email: value.email,
        error: `Too many login attempts from your network address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      });
    }
    if (!outcome.ok) return show(req, res, 401, { next, email: value.email, error: refused });

    // A new session id at login: an id planted before (session fixation) is worth nothing after it.
    await regenerateSession(req);
    req.session.staffId = outcome.staff.id;
    req.session.loginAt = deps.now();
    await saveSession(req);
    res.redirect(303, next ?? '/');
  });

  router.post('/logout', async (req, res) => {
    const staff = staffOrNull(res);
    if (staff) {
      await recordAudit(deps.db, {
        staffId: staff.id,
        actor: staff.email,
        action: 'logout',
        targetType: 'staff',
        targetId: staff.id,
        ...requestContext(req, res),
      });
    }
    await destroySession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.redirect(303, '/login?logged_out=1');
  });

  return router;
}
