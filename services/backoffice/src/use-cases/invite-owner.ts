/**
 * Staff invite a merchant's owner from its page (the first one, typically a live merchant, which cannot
 * sign up): the portal's invitation (role owner, invited_by_staff_id) and the portal's own mail. Audited as
 * the staff member (`merchant.owner_invited`), in the invitation's transaction.
 */
import type { AuditContext } from '@mm/collections';
import type { Db } from '@mm/db';
import { createInvitation, findMerchantUserForLogin } from '@mm/db/merchant-users';
import { findMerchant } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import { sendInvitationMail, type Mailer } from '@mm/mail';

export interface InviteOwnerDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  now(): number;
}

/** Who the mail says invites: our service, not a staff member's name. */
const STAFF_INVITER = 'Mobile money';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function inviteMerchantOwner(
  deps: InviteOwnerDeps,
  context: AuditContext & { staffId: string },
  input: { merchantId: string; email: string; locale: string },
): Promise<'not_found' | 'sent' | 'mail_failed' | { error: string }> {
  const merchant = await findMerchant(deps.db, input.merchantId);
  if (!merchant) return 'not_found';
  const email = input.email.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) return { error: 'Type a valid email address.' };
  if (input.locale !== 'fr' && input.locale !== 'en') return { error: 'Choose the language of the mail.' };
  if (await findMerchantUserForLogin(deps.db, { email })) {
    return { error: 'This address already has a dashboard account (one email is one person of one merchant).' };
  }
  const { invitation, token } = await deps.db.$transaction(async (tx) => {
    const made = await createInvitation(tx, {
      merchantId: merchant.id,
      email,
      role: 'owner',
      locale: input.locale as 'fr' | 'en',
      invitedBy: { staffId: context.staffId },
      now: new Date(deps.now()),
    });
    await recordAudit(tx, {
      ...context,
      action: 'merchant.owner_invited',
      targetType: 'merchant_invitation',
      targetId: made.invitation.id,
      after: { merchantId: merchant.id, email, role: 'owner', replaced: made.replaced },
    });
    return made;
  });
  try {
    await sendInvitationMail(deps, { invitation, token, merchantName: merchant.name, invitedBy: STAFF_INVITER });
    return 'sent';
  } catch {
    return 'mail_failed';
  }
}
