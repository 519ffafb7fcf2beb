/**
 * GET/POST /invitations/:token, public: the link of an invitation mail. It shows the merchant and the role;
 * the form sets the new member's name and password. Accepting spends the link and creates the user in one
 * transaction, then signs the new member in. A link never issued is a 404; one expired, revoked or used a
 * 410, each with its own sentence; an email that got an account in between a 409.
 */
import express, { type Request, type Response, type Router } from 'express';
import { isUniqueViolation, type Db } from '@mm/db';
import {
  claimInvitation,
  createMerchantUser,
  findInvitationByToken,
  invitationState,
  type Invitation,
} from '@mm/db/merchant-users';
import { recordAudit } from '@mm/db/staff';
import { isMerchantRole } from '@mm/domain';
import { csrfToken, regenerateSession, saveSession } from '@mm/web';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { linkMessages } from '../i18n/team.js';
import { invitationPath } from '@mm/mail';
import { acceptInvitationView, goneLinkView } from '../views/link-pages.js';
import { renderPage } from '../views/render.js';
import { LINK_TOKEN, readPasswordForm } from './mail-link-forms.js';

export interface InvitationRouterDeps {
  db: Db;
  now(): number;
}

class EmailTaken extends Error {}

export function invitationRouter(deps: InvitationRouterDeps): Router {
  const router = express.Router();

  const gone = (req: Request, res: Response, state: 'unknown' | 'expired' | 'revoked' | 'accepted') => {
    const locale = localeOfResponse(res);
    const l = linkMessages(locale);
    const message = { unknown: l.unknown, expired: l.expired, revoked: l.revokedLink, accepted: l.used }[state];
    renderPage(req, res, {
      status: state === 'unknown' ? 404 : 410,
      title: l.goneTitle,
      body: goneLinkView(locale, message),
    });
  };

  /** The invitation the token opens if still pending; otherwise the page that says why not is sent. */
  const pendingOf = async (req: Request, res: Response) => {
    res.set('Cache-Control', 'no-store');
    const token = String(req.params.token);
    const found = LINK_TOKEN.test(token) ? await findInvitationByToken(deps.db, token) : null;
    if (!found) return void gone(req, res, 'unknown');
    const state = found.merchant.status === 'ACTIVE' ? invitationState(found, new Date(deps.now())) : 'revoked';
    if (state !== 'pending') return void gone(req, res, state);
    return { token, invitation: found };
  };

  const form = (
    req: Request,
    res: Response,
    status: number,
    v: { token: string; invitation: Invitation & { merchant: { name: string } }; name?: string; error?: string },
  ) => {
    const locale = localeOfResponse(res);
    renderPage(req, res, {
      status,
      title: linkMessages(locale).acceptTitle,
      body: acceptInvitationView({
        locale,
        csrfToken: csrfToken(req),
        action: invitationPath(v.token),
        merchantName: v.invitation.merchant.name,
        role: v.invitation.role,
        email: v.invitation.email,
        ...(v.name ? { name: v.name } : {}),
        ...(v.error ? { error: v.error } : {}),
      }),
    });
  };

  router.get('/invitations/:token', async (req, res) => {
    const pending = await pendingOf(req, res);
    if (pending) form(req, res, 200, pending);
  });

  router.post('/invitations/:token', async (req, res) => {
    const pending = await pendingOf(req, res);
    if (!pending) return;
    const l = linkMessages(localeOfResponse(res));
    const typed = readPasswordForm(req.body, l, true);
    if (!typed.ok) return form(req, res, 400, { ...pending, name: typed.name, error: typed.error });
    const now = new Date(deps.now());
    const user = await deps.db
      .$transaction(async (tx) => {
        // Spent first: of two submits at once, one claims it and the other finds it used.
        const invitation = await claimInvitation(tx, pending.token, now);
        if (!invitation || !isMerchantRole(invitation.role)) return null;
        const created = await createMerchantUser(tx, {
          merchantId: invitation.merchantId,
          email: invitation.email,
          name: typed.name,
          role: invitation.role,
          password: typed.password,
        }).catch((err: unknown) => {
          throw isUniqueViolation(err) ? new EmailTaken() : err;
        });
        await recordAudit(tx, {
          staffId: null,
          actor: created.email,
          action: 'portal.team.invitation_accepted',
          targetType: 'merchant_invitation',
          targetId: invitation.id,
          after: { email: created.email, role: created.role, merchantUserId: created.id },
          merchantId: created.merchantId,
          merchantUserId: created.id,
          ...requestContext(req, res),
        });
        return created;
      })
      .catch((err: unknown) => {
        if (err instanceof EmailTaken) return 'taken' as const;
        throw err;
      });
    if (user === 'taken') return form(req, res, 409, { ...pending, name: typed.name, error: l.taken });
    if (!user) return gone(req, res, 'accepted');
    // Signed in at once: the mail proved the address, the form set the password. A new session id, as at sign-in.
    await regenerateSession(req);
    req.session.merchantUserId = user.id;
    req.session.loginAt = deps.now();
    await saveSession(req);
    res.redirect(303, '/');
  });

  return router;
}
