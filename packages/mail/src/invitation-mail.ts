/** Sends an invitation's mail: the one the portal's Team page and the back-office's first owner both send. */
import type { Invitation } from '@mm/db/merchant-users';
import type { Mailer } from './mailer.js';
import { invitationMail } from './merchant-mails.js';

export interface InvitationMailDeps {
  mailer: Mailer;
  publicUrl: string;
}

/** The link's path; the token is the only secret, so it travels in the path, never in a query log's field. */
export const invitationPath = (token: string) => `/invitations/${token}`;

export async function sendInvitationMail(
  deps: InvitationMailDeps,
  v: { invitation: Invitation; token: string; merchantName: string; invitedBy: string },
): Promise<void> {
  const locale = v.invitation.locale === 'en' ? 'en' : 'fr';
  await deps.mailer.send(
    invitationMail(locale, {
      to: v.invitation.email,
      merchantName: v.merchantName,
      role: v.invitation.role,
      invitedBy: v.invitedBy,
      link: `${deps.publicUrl}${invitationPath(v.token)}`,
      expiresAt: v.invitation.expiresAt,
    }),
  );
}
