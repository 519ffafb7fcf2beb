/**
 * `/team` (team:read, everyone): members and open invitations. Changes (team:manage: owners and admins):
 * invite, revoke an invitation, change a role, remove a member. The rules are use-cases/team-rules.ts; a
 * refusal shows the page again with its reason (409) and changes nothing; another merchant's id is a 404.
 */
import express, { type Request, type Response, type Router } from 'express';
import Joi from 'joi';
import { lastSignIns, pendingInvitationsPage, teamPage } from '@mm/db/merchant-users';
import { isMerchantRole, MERCHANT_ROLES, merchantCan, type MerchantRole } from '@mm/domain';
import { csrfToken, decodeCursor, encodeCursor, notFoundError, textField, type Cursor } from '@mm/web';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse, requestContext } from '../http/locals.js';
import { LOCALES, type Locale } from '../i18n/locale.js';
import { teamMessages } from '../i18n/team.js';
import {
  changeMemberRole,
  inviteMember,
  removeMember,
  revokeTeamInvitation,
  type TeamDeps,
} from '../use-cases/team.js';
import type { TeamRefusal } from '../use-cases/team-rules.js';
import { renderPage } from '../views/render.js';
import { teamView, type TeamData } from '../views/team.js';
import type { RouteRule } from './route-rules.js';

export const TEAM_ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/team', permission: 'team:read' },
  { method: 'POST', path: '/team/invitations', permission: 'team:manage' },
  { method: 'POST', path: '/team/invitations/:id/revoke', permission: 'team:manage' },
  { method: 'POST', path: '/team/members/:id/role', permission: 'team:manage' },
  { method: 'POST', path: '/team/members/:id/remove', permission: 'team:manage' },
];

const inviteForm = Joi.object<{ email: string; role: MerchantRole; locale: Locale }>({
  email: Joi.string().trim().lowercase().max(254).email({ tlds: false }).required(),
  role: Joi.string()
    .valid(...MERCHANT_ROLES)
    .required(),
  locale: Joi.string()
    .valid(...LOCALES)
    .required(),
}).unknown(true);

const roleForm = Joi.object<{ role: MerchantRole }>({
  role: Joi.string()
    .valid(...MERCHANT_ROLES)
    .required(),
}).unknown(true);

/** Members per page: a team is rarely longer, and a page of 50 rows reads like the other lists. */
const PAGE_SIZE = 50;

interface TeamFilters {
  role: MerchantRole | '';
  /** The members' page and the invitations' page: each list has its own cursor. */
  after: Cursor | undefined;
  invitationsAfter: Cursor | undefined;
}

/** The lists' filter and cursors from the URL, each as the page's own links write them; null: unreadable. */
function teamFilters(query: Record<string, unknown>): TeamFilters | null {
  const role = textField(query, 'role');
  const cursors = [textField(query, 'after'), textField(query, 'invitations_after')];
  if (role === null || (role !== '' && !isMerchantRole(role))) return null;
  const [after, invitationsAfter] = cursors.map((raw) =>
    raw === null ? null : raw === '' ? undefined : decodeCursor(raw),
  );
  if (after === null || invitationsAfter === null) return null;
  return { role: role as MerchantRole | '', after, invitationsAfter };
}

const NOTICES = {
  invited: 'invited',
  mail_failed: 'mailFailed',
  revoked: 'revoked',
  role_changed: 'roleChanged',
  removed: 'removed',
} as const;

const REFUSALS: Record<TeamRefusal | 'already_member', keyof ReturnType<typeof teamMessages>> = {
  only_owner_owner: 'onlyOwnerOwner',
  last_owner: 'lastOwner',
  yourself: 'notYourself',
  already_member: 'alreadyMember',
};

export function teamRouter(deps: TeamDeps): Router {
  const router = express.Router();

  const show = async (
    req: Request,
    res: Response,
    status: number,
    extra: Pick<TeamData, 'notice' | 'error' | 'typed'> = {},
  ) => {
    const me = currentUser(res);
    const locale = localeOfResponse(res);
    // After a change the page is the list's first one, unfiltered; a GET reads its filter from the URL.
    const filters: TeamFilters | null =
      req.method === 'GET'
        ? teamFilters(req.query as Record<string, unknown>)
        : { role: '', after: undefined, invitationsAfter: undefined };
    const [page, signIns, pending] = await Promise.all([
      filters
        ? teamPage(deps.db, me.merchantId, {
            limit: PAGE_SIZE,
            ...(filters.role ? { role: filters.role } : {}),
            after: filters.after,
          })
        : { members: [], next: null },
      lastSignIns(deps.db, me.merchantId),
      filters
        ? pendingInvitationsPage(deps.db, me.merchantId, new Date(deps.now()), {
            limit: PAGE_SIZE,
            ...(filters.role ? { role: filters.role } : {}),
            after: filters.invitationsAfter,
          })
        : { invitations: [], next: null },
    ]);
    const role = filters?.role ?? '';
    // Each list's "older" link pages that list and starts the other one again from its newest.
    const olderQuery = (key: 'after' | 'invitations_after', next: Cursor | null) =>
      next ? new URLSearchParams({ ...(role ? { role } : {}), [key]: encodeCursor(next) }).toString() : null;
    renderPage(req, res, {
      status: filters ? status : 400,
      title: teamMessages(locale).title,
      body: teamView({
        locale,
        csrfToken: csrfToken(req),
        me,
        members: page.members,
        lastSignIns: signIns,
        invitations: pending.invitations,
        canManage: merchantCan(me.role, 'team:manage'),
        filter: {
          role,
          membersPaged: filters?.after !== undefined,
          invitationsPaged: filters?.invitationsAfter !== undefined,
          olderMembers: olderQuery('after', page.next),
          olderInvitations: olderQuery('invitations_after', pending.next),
        },
        ...(filters ? {} : { error: teamMessages(locale).badFilter }),
        ...extra,
      }),
    });
  };

  const refused = (req: Request, res: Response, reason: TeamRefusal | 'already_member', typed?: TeamData['typed']) =>
    show(req, res, 409, { error: teamMessages(localeOfResponse(res))[REFUSALS[reason]], ...(typed ? { typed } : {}) });

  router.get('/team', requirePermission('team:read'), async (req, res) => {
    const done = typeof req.query.done === 'string' && req.query.done in NOTICES ? req.query.done : null;
    const notice = done ? teamMessages(localeOfResponse(res))[NOTICES[done as keyof typeof NOTICES]] : undefined;
    await show(req, res, 200, notice ? { notice } : {});
  });

  router.post('/team/invitations', requirePermission('team:manage'), async (req, res) => {
    const tm = teamMessages(localeOfResponse(res));
    const body = (req.body ?? {}) as Record<string, unknown>;
    const typed = { email: typeof body.email === 'string' ? body.email.slice(0, 254) : '' };
    const { value, error } = inviteForm.validate(body);
    if (error) {
      const badRole = error.details.some((d) => d.path[0] !== 'email');
      return show(req, res, 400, { error: badRole ? tm.badRole : tm.badEmail, typed });
    }
    const outcome = await inviteMember(deps, currentUser(res), value, requestContext(req, res));
    if (outcome.kind === 'refused') return refused(req, res, outcome.reason, { ...typed, role: value.role });
    res.redirect(303, `/team?done=${outcome.kind === 'sent' ? 'invited' : 'mail_failed'}`);
  });

  router.post('/team/invitations/:id/revoke', requirePermission('team:manage'), async (req, res) => {
    const outcome = await revokeTeamInvitation(
      deps,
      currentUser(res),
      req.params.id as string,
      requestContext(req, res),
    );
    if (outcome.kind === 'not_found') throw notFoundError();
    res.redirect(303, '/team?done=revoked');
  });

  router.post('/team/members/:id/role', requirePermission('team:manage'), async (req, res) => {
    const { value, error } = roleForm.validate(req.body ?? {});
    if (error) return show(req, res, 400, { error: teamMessages(localeOfResponse(res)).badRole });
    const outcome = await changeMemberRole(
      deps,
      currentUser(res),
      req.params.id as string,
      value.role,
      requestContext(req, res),
    );
    if (outcome.kind === 'not_found') throw notFoundError();
    if (outcome.kind === 'refused') return refused(req, res, outcome.reason);
    res.redirect(303, '/team?done=role_changed');
  });

  router.post('/team/members/:id/remove', requirePermission('team:manage'), async (req, res) => {
    const outcome = await removeMember(deps, currentUser(res), req.params.id as string, requestContext(req, res));
    if (outcome.kind === 'not_found') throw notFoundError();
    if (outcome.kind === 'refused') return refused(req, res, outcome.reason);
    res.redirect(303, '/team?done=removed');
  });

  return router;
}
