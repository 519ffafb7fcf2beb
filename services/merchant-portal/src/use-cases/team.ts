/**
 * The Team page's changes, each in one transaction with its audit row (`portal.team.*`): invite (the mail
 * goes out after the commit), revoke an invitation, change a role, remove a member. A member or invitation
 * of another merchant is `not_found`, exactly like one that does not exist.
 */
import {
  createInvitation,
  findMerchantUserForLogin,
  lockTeamMember,
  revokeInvitation,
  setMerchantUserDisabled,
  setMerchantUserRole,
  type MerchantUserAccount,
} from '@mm/db/merchant-users';
import type { Db } from '@mm/db';
import { recordAudit, type AuditInput } from '@mm/db/staff';
import type { MerchantRole } from '@mm/domain';
import type { Locale } from '../i18n/locale.js';
import { sendInvitationMail, type InvitationMailDeps } from '@mm/mail';
import type { RequestContext } from './sign-in.js';
import { invitationRefusal, removalRefusal, roleChangeRefusal, type TeamRefusal } from './team-rules.js';

export interface TeamDeps extends InvitationMailDeps {
  db: Db;
  now(): number;
}

export type TeamOutcome = { kind: 'done' } | { kind: 'refused'; reason: TeamRefusal } | { kind: 'not_found' };

const audit = (
  actor: MerchantUserAccount,
  c: RequestContext,
  action: string,
  target: { type: string; id: string },
  change: { before?: unknown; after?: unknown },
): AuditInput => ({
  staffId: null,
  actor: actor.email,
  action,
  targetType: target.type,
  targetId: target.id,
  merchantId: actor.merchantId,
  merchantUserId: actor.id,
  requestId: c.requestId,
  ...(c.ip ? { ip: c.ip } : {}),
  ...change,
});

export async function inviteMember(
  deps: TeamDeps,
  actor: MerchantUserAccount,
  input: { email: string; role: MerchantRole; locale: Locale },
  c: RequestContext,
): Promise<
  { kind: 'sent' | 'mail_failed'; invitationId: string } | { kind: 'refused'; reason: TeamRefusal | 'already_member' }
> {
  const refusal = invitationRefusal(actor, input.role);
  if (refusal) return { kind: 'refused', reason: refusal };
  // One email is one person of one merchant: a removed member's address is taken too (docs/merchant-portal/team.md).
  if (await findMerchantUserForLogin(deps.db, { email: input.email })) {
    return { kind: 'refused', reason: 'already_member' };
  }
  const now = new Date(deps.now());
  const { invitation, token } = await deps.db.$transaction(async (tx) => {
    const made = await createInvitation(tx, {
      merchantId: actor.merchantId,
      email: input.email,
      role: input.role,
      locale: input.locale,
      invitedBy: { merchantUserId: actor.id },
      now,
    });
    await recordAudit(
      tx,
      audit(
        actor,
        c,
        'portal.team.invitation_created',
        { type: 'merchant_invitation', id: made.invitation.id },
        { after: { email: made.invitation.email, role: made.invitation.role, replaced: made.replaced } },
      ),
    );
    return made;
  });
  try {
    await sendInvitationMail(deps, { invitation, token, merchantName: actor.merchant.name, invitedBy: actor.name });
    return { kind: 'sent', invitationId: invitation.id };
  } catch {
    return { kind: 'mail_failed', invitationId: invitation.id };
  }
}

export async function revokeTeamInvitation(
  deps: TeamDeps,
  actor: MerchantUserAccount,
  id: string,
  c: RequestContext,
): Promise<TeamOutcome> {
  return deps.db.$transaction(async (tx) => {
    const revoked = await revokeInvitation(tx, actor.merchantId, id, new Date(deps.now()));
    if (!revoked) return { kind: 'not_found' } as const;
    await recordAudit(
      tx,
      audit(
        actor,
        c,
        'portal.team.invitation_revoked',
        { type: 'merchant_invitation', id },
        {
          before: { email: revoked.email, role: revoked.role },
        },
      ),
    );
    return { kind: 'done' } as const;
  });
}

export async function changeMemberRole(
  deps: TeamDeps,
  actor: MerchantUserAccount,
  memberId: string,
  role: MerchantRole,
  c: RequestContext,
): Promise<TeamOutcome> {
  return deps.db.$transaction(async (tx) => {
    const { member, activeOwners } = await lockTeamMember(tx, actor.merchantId, memberId);
    if (!member || member.disabledAt) return { kind: 'not_found' } as const;
    const reason = roleChangeRefusal(actor, member, role, activeOwners);
    if (reason) return { kind: 'refused', reason } as const;
    if (member.role === role) return { kind: 'done' } as const;
    await setMerchantUserRole(tx, member.id, role, new Date(deps.now()));
    await recordAudit(
      tx,
      audit(
        actor,
        c,
        'portal.team.role_changed',
        { type: 'merchant_user', id: member.id },
        {
          before: { email: member.email, role: member.role },
          after: { email: member.email, role },
        },
      ),
    );
    return { kind: 'done' } as const;
  });
}

/** Removal disables the user (its audit rows keep their author); the guard refuses it at its next click. */
export async function removeMember(
  deps: TeamDeps,
  actor: MerchantUserAccount,
  memberId: string,
  c: RequestContext,
): Promise<TeamOutcome> {
  return deps.db.$transaction(async (tx) => {
    const { member, activeOwners } = await lockTeamMember(tx, actor.merchantId, memberId);
    if (!member || member.disabledAt) return { kind: 'not_found' } as const;
    const reason = removalRefusal(actor, member, activeOwners);
    if (reason) return { kind: 'refused', reason } as const;
    await setMerchantUserDisabled(tx, member.id, true, new Date(deps.now()));
    await recordAudit(
      tx,
      audit(
        actor,
        c,
        'portal.team.member_removed',
        { type: 'merchant_user', id: member.id },
        {
          before: { email: member.email, role: member.role },
        },
      ),
    );
    return { kind: 'done' } as const;
  });
}
