/**
 * GET/POST /password-reset (an email in, always the same answer) and GET/POST /password-reset/:token (the
 * mail's link: a new password, typed twice). Public, like the sign-in. A link unknown, used or past its
 * hour is a 410 with one sentence for all three: a reset link tells nothing about the account.
 */
import express, { type Request, type Response, type Router } from 'express';
import Joi from 'joi';
import { passwordResetUser } from '@mm/db/merchant-users';
import { ANONYMOUS_SESSION_MS, csrfToken } from '@mm/web';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { linkMessages } from '../i18n/team.js';
import {
  completePasswordReset,
  passwordResetPath,
  requestPasswordReset,
  type PasswordResetDeps,
} from '../use-cases/password-reset.js';
import { goneLinkView, resetPasswordView, resetRequestView } from '../views/link-pages.js';
import { renderPage } from '../views/render.js';
import { LINK_TOKEN, readPasswordForm } from './mail-link-forms.js';

const emailForm = Joi.object<{ email: string }>({ email: Joi.string().trim().max(254).required() }).unknown(true);

export function passwordResetRouter(deps: PasswordResetDeps): Router {
  const router = express.Router();

  const showRequest = (
    req: Request,
    res: Response,
    status: number,
    v: { email?: string; error?: string; notice?: string },
  ) => {
    req.session.cookie.maxAge = ANONYMOUS_SESSION_MS;
    const locale = localeOfResponse(res);
    renderPage(req, res, {
      status,
      title: linkMessages(locale).resetTitle,
      body: resetRequestView({ locale, csrfToken: csrfToken(req), ...v }),
    });
  };

  const gone = (req: Request, res: Response) => {
    const locale = localeOfResponse(res);
    const l = linkMessages(locale);
    renderPage(req, res, { status: 410, title: l.goneTitle, body: goneLinkView(locale, l.expired) });
  };

  const showForm = (req: Request, res: Response, status: number, token: string, error?: string) => {
    const locale = localeOfResponse(res);
    renderPage(req, res, {
      status,
      title: linkMessages(locale).resetTitle,
      body: resetPasswordView({
        locale,
        csrfToken: csrfToken(req),
        action: passwordResetPath(token),
        ...(error ? { error } : {}),
      }),
    });
  };

  /** The link's token while it still works, else the 410 page has been sent. */
  const openToken = async (req: Request, res: Response): Promise<string | null> => {
    res.set('Cache-Control', 'no-store');
    const token = String(req.params.token);
    if (LINK_TOKEN.test(token) && (await passwordResetUser(deps.db, token, new Date(deps.now())))) return token;
    gone(req, res);
    return null;
  };

  router.get('/password-reset', (req, res) => showRequest(req, res, 200, {}));

  router.post('/password-reset', async (req, res) => {
    const locale = localeOfResponse(res);
    const l = linkMessages(locale);
    const { value, error } = emailForm.validate(req.body ?? {});
    if (error) return showRequest(req, res, 400, { error: l.resetIntro });
    const outcome = await requestPasswordReset(deps, { email: value.email, locale }, requestContext(req, res));
    if (outcome.kind === 'throttled') {
      res.set('Retry-After', String(outcome.retryAfterS));
      return showRequest(req, res, 429, { email: value.email, error: l.throttled });
    }
    showRequest(req, res, 200, { notice: l.resetSent });
  });

  router.get('/password-reset/:token', async (req, res) => {
    const token = await openToken(req, res);
    if (token) showForm(req, res, 200, token);
  });

  router.post('/password-reset/:token', async (req, res) => {
    const token = await openToken(req, res);
    if (!token) return;
    const typed = readPasswordForm(req.body, linkMessages(localeOfResponse(res)), false);
    if (!typed.ok) return showForm(req, res, 400, token, typed.error);
    if (!(await completePasswordReset(deps, token, typed.password, requestContext(req, res)))) return gone(req, res);
    res.redirect(303, '/login?reset=1');
  });

  return router;
}
