/**
 * GET/POST /signup, public and only in a sandbox deployment (DEPLOYMENT_MODE=sandbox; a live one answers
 * 404): email, business name, country among the open subsidiaries, the owner's name and password. It runs
 * the back-office's creation (createMerchantWithKey: the merchant, its first key, `merchant.create`) with the
 * owner added in the same transaction, signs the owner in and shows the key's secret once.
 */
import express, { type Request, type Response, type Router } from 'express';
import Joi from 'joi';
import { createMerchantWithKey } from '@mm/collections';
import { isUniqueViolation, type Db, type SecretBox } from '@mm/db';
import { createMerchantUser, findMerchantUserForLogin } from '@mm/db/merchant-users';
import { findActiveSubsidiary, listActiveSubsidiaries } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import type { DeploymentMode } from '@mm/domain';
import { ANONYMOUS_SESSION_MS, csrfToken, notFoundError, regenerateSession, saveSession } from '@mm/web';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { linkMessages, teamMessages } from '../i18n/team.js';
import { renderPage } from '../views/render.js';
import { signedUpView, signUpView } from '../views/link-pages.js';
import { readPasswordForm } from './mail-link-forms.js';

export interface SignUpDeps {
  db: Db;
  box: SecretBox;
  deploymentMode: DeploymentMode;
  now(): number;
}

const fields = Joi.object<{ email: string; business: string; country: string }>({
  email: Joi.string().trim().lowercase().max(254).email({ tlds: false }).required(),
  business: Joi.string().trim().min(1).max(100).required(),
  country: Joi.string().trim().uppercase().length(2).required(),
}).unknown(true);

class EmailTaken extends Error {}

export function signUpRouter(deps: SignUpDeps): Router {
  const router = express.Router();

  router.use('/signup', (_req, _res, next) => {
    if (deps.deploymentMode !== 'sandbox') throw notFoundError();
    next();
  });

  const show = async (req: Request, res: Response, status: number, error?: string) => {
    req.session.cookie.maxAge = ANONYMOUS_SESSION_MS;
    const locale = localeOfResponse(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const text = (k: string) => (typeof body[k] === 'string' ? (body[k] as string).slice(0, 254) : '');
    renderPage(req, res, {
      status,
      title: linkMessages(locale).signUpTitle,
      body: signUpView({
        locale,
        csrfToken: csrfToken(req),
        countries: await listActiveSubsidiaries(deps.db),
        typed: { email: text('email'), business: text('business'), country: text('country') },
        ...(error ? { error } : {}),
      }),
    });
  };

  router.get('/signup', (req, res) => show(req, res, 200));

  router.post('/signup', async (req, res) => {
    const locale = localeOfResponse(res);
    const l = linkMessages(locale);
    const { value, error } = fields.validate(req.body ?? {});
    if (error) {
      const field = error.details[0]?.path[0];
      const message =
        field === 'email' ? teamMessages(locale).badEmail : field === 'business' ? l.badBusiness : l.badCountry;
      return show(req, res, 400, message);
    }
    if (!(await findActiveSubsidiary(deps.db, value.country))) return show(req, res, 400, l.badCountry);
    const typed = readPasswordForm(req.body, l, true);
    if (!typed.ok) return show(req, res, 400, typed.error);
    if (await findMerchantUserForLogin(deps.db, { email: value.email })) return show(req, res, 409, l.taken);

    const c = requestContext(req, res);
    let ownerId = '';
    const outcome = await createMerchantWithKey(
      { db: deps.db, box: deps.box },
      { staffId: null, actor: value.email, ...c },
      { name: value.business, webhookUrl: '' },
      async (tx, merchantId) => {
        const owner = await createMerchantUser(tx, {
          merchantId,
          email: value.email,
          name: typed.name,
          role: 'owner',
          password: typed.password,
        }).catch((err: unknown) => {
          // Taken between the check above and here: the whole creation rolls back.
          throw isUniqueViolation(err) ? new EmailTaken() : err;
        });
        ownerId = owner.id;
        await recordAudit(tx, {
          staffId: null,
          actor: owner.email,
          action: 'portal.sign_up',
          targetType: 'merchant',
          targetId: merchantId,
          after: { email: owner.email, business: value.business, country: value.country },
          merchantId,
          merchantUserId: owner.id,
          ...c,
        });
      },
    ).catch((err: unknown) => {
      if (err instanceof EmailTaken) return 'taken' as const;
      throw err;
    });
    if (outcome === 'taken') return show(req, res, 409, l.taken);
    if (outcome.kind === 'invalid') return show(req, res, 400, l.badBusiness);

    await regenerateSession(req);
    req.session.merchantUserId = ownerId;
    req.session.loginAt = deps.now();
    await saveSession(req);
    // The one page that ever shows this secret: never stored by a browser or a proxy.
    res.set('Cache-Control', 'no-store');
    renderPage(req, res, { status: 201, title: l.signUpTitle, body: signedUpView(locale, outcome.key) });
  });

  return router;
}
