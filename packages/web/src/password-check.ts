import { dummyVerifyPassword, verifyPassword } from '@mm/db/staff';
import type { Counter } from '@mm/observability';

/**
 * Checks a login's password against the stored hash, or against nothing (`null`: unknown email) at the
 * same cost, so the time taken says nothing about the account. Each call is one scrypt, the expensive
 * part of a login; the counter (`mm_backoffice_password_verifications_total`) shows how many the
 * throttle lets through, and is what the concurrency test counts.
 */
export type PasswordCheck = (password: string, storedHash: string | null) => Promise<boolean>;

export function countedPasswordCheck(verifications: Counter): PasswordCheck {
  return async (password, storedHash) => {
    verifications.inc();
    return storedHash === null ? dummyVerifyPassword(password) : verifyPassword(password, storedHash);
  };
}
