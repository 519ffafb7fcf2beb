/**
 * `/security` (security:read: owners and admins): the team's two-factor setting and the merchant's own
 * audit log; `POST /security/two-factor-required` (security:manage: owners) changes the setting with the
 * owner's current code. The log is listAudit scoped to the merchant: never another's rows nor staff rows.
 */
import express, { type Request, type Response, type Router } from 'express';
import Joi from 'joi';
import { listMerchantUsers, setTeamTwoFactorRequired } from '@mm/db/merchant-users';
import { listAudit, recordAudit, type AuditQuery } from '@mm/db/staff';
import { merchantCan } from '@mm/domain';
import { csrfToken, isUuid, textField } from '@mm/web';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { securityMessages } from '../i18n/security.js';
import { confirmStepUp, type StepUpDeps } from '../use-cases/step-up.js';
import { renderPage } from '../views/render.js';
import { securityView, type SecurityFilters } from '../views/security.js';
import type { RouteRule } from './route-rules.js';

export const SECURITY_ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/security', permission: 'security:read' },
  { method: 'POST', path: '/security/two-factor-required', permission: 'security:manage' },
];

const PAGE_SIZE = 50;
const ACTION = /^[a-z][a-z0-9_.]{0,63}$/;

const settingForm = Joi.object<{ required: 'on' | 'off'; code: string }>({
  required: Joi.string().valid('on', 'off').required(),
  code: Joi.string().trim().min(1).max(32).required(),
}).unknown(true);

export function securityRouter(deps: StepUpDeps): Router {
  const router = express.Router();

  const show = async (
    req: Request,
    res: Response,
    status: number,
    alert: { notice?: string; error?: string },
    query: Record<string, unknown> = {},
  ) => {
    const user = currentUser(res);
    const locale = localeOfResponse(res);
    const s = securityMessages(locale);
    const team = await listMerchantUsers(deps.db, user.merchantId);
    const errors: string[] = [];
    const action = textField(query, 'action');
    const member = textField(query, 'user');
    const before = textField(query, 'before');
    if (action === null || (action !== '' && !ACTION.test(action))) errors.push(s.badAction);
    // A member of this team only: an id of another merchant's user is refused like a made-up one.
    if (member === null || (member !== '' && !(isUuid(member) && team.some((u) => u.id === member))))
      errors.push(s.badMember);
    // The keyset cursor is an id from our own "Older" link; anything else is a damaged link.
    if (before === null || (before !== '' && !/^\d{1,19}$/.test(before))) errors.push(s.badCursor);
    const filters: SecurityFilters = { action: action ?? '', user: member ?? '' };
    const auditQuery: AuditQuery = {
      limit: PAGE_SIZE,
      merchantId: user.merchantId,
      ...(before ? { beforeId: before } : {}),
      ...(filters.action ? { action: filters.action } : {}),
      ...(filters.user ? { merchantUserId: filters.user } : {}),
    };
    const page = errors.length === 0 ? await listAudit(deps.db, auditQuery) : null;
    const kept = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''));
    renderPage(req, res, {
      status: errors.length > 0 ? 400 : status,
      title: s.title,
      body: securityView({
        locale,
        csrfToken: csrfToken(req),
        required: user.merchant.requireTwoFactor,
        canManage: merchantCan(user.role, 'security:manage'),
        team,
        filters,
        errors,
        entries: page?.entries ?? null,
        olderQuery: page?.nextBeforeId
          ? new URLSearchParams({ ...kept, before: page.nextBeforeId.toString() }).toString()
          : null,
        paged: Boolean(before),
        newestQuery: new URLSearchParams(kept).toString(),
        ...alert,
      }),
    });
  };

  router.get('/security', requirePermission('security:read'), async (req, res) => {
    const s = securityMessages(localeOfResponse(res));
    const done = req.query.done;
    const notice = done === 'required' ? s.nowRequired : done === 'not_required' ? s.noLongerRequired : undefined;
    await show(req, res, 200, notice ? { notice } : {}, req.query);
  });

  router.post('/security/two-factor-required', requirePermission('security:manage'), async (req, res) => {
    const user = currentUser(res);
    const s = securityMessages(localeOfResponse(res));
    const { value, error } = settingForm.validate(req.body ?? {});
    if (error) return show(req, res, 400, { error: s.badForm });
    const c = requestContext(req, res);
    const proof = await confirmStepUp(deps, user, value.code, 'team_two_factor', c);
    if (proof === 'no_two_factor') return show(req, res, 403, { error: s.needTwoFactor });
    if (proof === 'wrong_code') return show(req, res, 401, { error: s.wrongCode });
    const required = value.required === 'on';
    await deps.db.$transaction(async (tx) => {
      const { before } = await setTeamTwoFactorRequired(tx, user.merchantId, required, new Date(deps.now()));
      await recordAudit(tx, {
        staffId: null,
        actor: user.email,
        action: 'portal.team_two_factor',
        targetType: 'merchant',
        targetId: user.merchantId,
        merchantId: user.merchantId,
        merchantUserId: user.id,
        before: { requireTwoFactor: before },
        after: { requireTwoFactor: required },
        ...c,
      });
    });
    res.redirect(303, `/security?done=${required ? 'required' : 'not_required'}`);
  });

  return router;
}
