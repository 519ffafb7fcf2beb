/**
 * `/account`: the signed-in user's own page, whatever the role: who they are, their two-factor sign-in
 * (set up, confirmed, set up again, turned off) and "sign out of every session". It is the one page a
 * user the team requires two-factor of can reach before setting it up (auth/guard.ts).
 */
import express, { type Request, type Response, type Router } from 'express';
import Joi from 'joi';
import { signOutEverywhere, unusedRecoveryCodeCount } from '@mm/db/merchant-users';
import { recordAudit } from '@mm/db/staff';
import { csrfToken, destroySession } from '@mm/web';
import { currentUser, requirePermission } from '../auth/guard.js';
import { SESSION_COOKIE } from '../auth/session.js';
import { totpUri } from '../auth/totp.js';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { accountMessages } from '../i18n/account.js';
import { t } from '../i18n/messages.js';
import {
  confirmTwoFactor,
  disableTwoFactor,
  pendingTotpSecret,
  startTwoFactor,
  type TwoFactorDeps,
} from '../use-cases/two-factor.js';
import { qrSvg } from '../views/account-qr.js';
import { accountView, recoveryCodesView } from '../views/account.js';
import { renderPage } from '../views/render.js';
import type { RouteRule } from './route-rules.js';

export const ACCOUNT_ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/account', permission: null },
  { method: 'POST', path: '/account/two-factor/start', permission: null },
  { method: 'POST', path: '/account/two-factor/confirm', permission: null },
  { method: 'POST', path: '/account/two-factor/disable', permission: null },
  { method: 'POST', path: '/account/sign-out-everywhere', permission: null },
];

/** Blank is allowed where no code is asked (a first set-up); each route says when one is missing. */
const codeForm = Joi.object<{ code: string }>({
  code: Joi.string().trim().max(32).allow('').default(''),
}).unknown(true);

export function accountRouter(deps: TwoFactorDeps): Router {
  const router = express.Router();

  const show = async (req: Request, res: Response, status: number, alert: { notice?: string; error?: string }) => {
    const user = currentUser(res);
    const locale = localeOfResponse(res);
    const a = accountMessages(locale);
    const secret = await pendingTotpSecret(deps, user.id);
    const pending = secret
      ? { secret, qr: await qrSvg(totpUri(secret, user.email, t('en').siteName), a.qrLabel) }
      : null;
    // The page may carry a key being set up: never kept by a browser or a proxy.
    res.set('Cache-Control', 'no-store');
    renderPage(req, res, {
      status,
      title: a.title,
      body: accountView({
        locale,
        csrfToken: csrfToken(req),
        user,
        recoveryLeft: user.totpEnabledAt ? await unusedRecoveryCodeCount(deps.db, user.id) : 0,
        pending,
        ...alert,
      }),
    });
  };

  const codeOf = (req: Request): string | null => {
    const { value, error } = codeForm.validate(req.body ?? {});
    return error ? null : value.code;
  };

  router.get('/account', requirePermission(null), async (req, res) => {
    const a = accountMessages(localeOfResponse(res));
    const notice =
      req.query.two_factor === 'required' ? a.required : req.query.done === 'two_factor_off' ? a.disabled : undefined;
    await show(req, res, 200, notice ? { notice } : {});
  });

  router.post('/account/two-factor/start', requirePermission(null), async (req, res) => {
    const user = currentUser(res);
    const a = accountMessages(localeOfResponse(res));
    const code = codeOf(req);
    if (code === null) return show(req, res, 400, { error: a.wrongCode });
    if (user.totpEnabledAt && code === '') return show(req, res, 400, { error: a.missingCode });
    const outcome = await startTwoFactor(deps, user, code, requestContext(req, res));
    if (outcome === 'wrong_code') return show(req, res, 401, { error: a.wrongCode });
    res.redirect(303, '/account#two-factor');
  });

  router.post('/account/two-factor/confirm', requirePermission(null), async (req, res) => {
    const user = currentUser(res);
    const locale = localeOfResponse(res);
    const a = accountMessages(locale);
    const code = codeOf(req);
    if (!code) return show(req, res, 400, { error: code === null ? a.wrongCode : a.missingCode });
    const outcome = await confirmTwoFactor(deps, user, code, requestContext(req, res));
    if (outcome.kind === 'not_pending') {
      return show(req, res, 409, { error: user.totpEnabledAt ? a.alreadyOn : a.notPending });
    }
    if (outcome.kind === 'wrong_code') return show(req, res, 401, { error: a.wrongNewCode });
    // A page, not a redirect: the codes exist in clear only in this response.
    res.set('Cache-Control', 'no-store');
    renderPage(req, res, { title: a.recoveryTitle, body: recoveryCodesView(locale, outcome.recoveryCodes) });
  });

  router.post('/account/two-factor/disable', requirePermission(null), async (req, res) => {
    const user = currentUser(res);
    const a = accountMessages(localeOfResponse(res));
    const code = codeOf(req);
    if (!code) return show(req, res, 400, { error: code === null ? a.wrongCode : a.missingCode });
    const outcome = await disableTwoFactor(deps, user, code, requestContext(req, res));
    if (outcome === 'required') return show(req, res, 403, { error: a.turnOffRequired });
    if (outcome === 'not_on') return res.redirect(303, '/account');
    if (outcome === 'wrong_code') return show(req, res, 401, { error: a.wrongCode });
    res.redirect(303, '/account?done=two_factor_off');
  });

  router.post('/account/sign-out-everywhere', requirePermission(null), async (req, res) => {
    const user = currentUser(res);
    const c = requestContext(req, res);
    await deps.db.$transaction(async (tx) => {
      await signOutEverywhere(tx, user.id, new Date(deps.now()));
      await recordAudit(tx, {
        staffId: null,
        actor: user.email,
        action: 'portal.sign_out_everywhere',
        targetType: 'merchant_user',
        targetId: user.id,
        merchantId: user.merchantId,
        merchantUserId: user.id,
        ...c,
      });
    });
    // This session would fail the guard's check at its next request anyway; it ends now, visibly.
    await destroySession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.redirect(303, '/login?signed_out=1');
  });

  return router;
}
