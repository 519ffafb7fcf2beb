import type { AuditInput } from '@mm/db/staff';

/**
 * Who does it, from where: spread into recordAudit() by every audited action. The front end fills it
 * from its own session: the back-office's logged-in staff member, or the merchant portal's user (staffId
 * null, with the merchant's id and the user's, so the row lands in the merchant's part of the log).
 */
export type AuditContext = Pick<AuditInput, 'staffId' | 'actor' | 'requestId' | 'ip' | 'merchantId' | 'merchantUserId'>;

/**
 * The action name of a use case's audit row: a merchant user acts only through the portal, so its rows
 * read `portal.<action>` and the merchant's log tells its own people's changes from staff's.
 */
export function auditAction(context: AuditContext, action: string): string {
  return context.merchantUserId ? `portal.${action}` : action;
}
