import type { AuditInput } from '@mm/db/staff';

/**
 * Who does it, from where: spread into recordAudit() by every audited action. The front end fills it
 * from its own session (the back-office's logged-in staff member and request).
 */
export type AuditContext = Pick<AuditInput, 'staffId' | 'actor' | 'requestId' | 'ip'>;
