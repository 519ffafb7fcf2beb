/** Back-office staff accounts (staff_users). Emails are stored lower-cased, as the table requires. */
import { randomUUID } from 'node:crypto';
import { isUuid, type StaffRole } from '@mm/domain';
import type { Db, Tx } from '../database/index.js';
import type { StaffUser } from '../generated/prisma/client.js';
import { hashPassword } from './staff-password.js';

/** A staff account without its password hash: what pages and the per-request guard get. */
export type StaffAccount = Omit<StaffUser, 'passwordHash'>;

const ACCOUNT = {
  id: true,
  email: true,
  name: true,
  role: true,
  disabledAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export function normalizeStaffEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface NewStaffUser {
  email: string;
  name: string;
  role: StaffRole;
  /** Plain text, hashed here: nothing can store a password that is not hashed. */
  password: string;
}

/** Throws a unique violation (isUniqueViolation) when the email is taken. */
export async function createStaffUser(db: Db | Tx, input: NewStaffUser): Promise<StaffAccount> {
  return db.staffUser.create({
    data: {
      id: randomUUID(),
      email: normalizeStaffEmail(input.email),
      name: input.name.trim(),
      role: input.role,
      passwordHash: await hashPassword(input.password),
    },
    select: ACCOUNT,
  });
}

/** With the password hash: for the login check only. */
export async function findStaffByEmail(db: Db | Tx, email: string): Promise<StaffUser | null> {
  return db.staffUser.findUnique({ where: { email: normalizeStaffEmail(email) } });
}

export async function findStaffById(db: Db | Tx, id: string): Promise<StaffAccount | null> {
  // A malformed id would be a database error (invalid uuid), not "no such user".
  if (!isUuid(id)) return null;
  return db.staffUser.findUnique({ where: { id }, select: ACCOUNT });
}

export async function listStaff(db: Db | Tx): Promise<StaffAccount[]> {
  return db.staffUser.findMany({ select: ACCOUNT, orderBy: [{ role: 'asc' }, { email: 'asc' }] });
}

/**
 * Disables (or re-enables) an account; a disabled user's next request is refused. Returns the account
 * before and after, for the audit row, or null when there is no such account.
 */
export async function setStaffDisabled(
  db: Db | Tx,
  id: string,
  disabled: boolean,
): Promise<{ before: StaffAccount; after: StaffAccount } | null> {
  const before = await findStaffById(db, id);
  if (!before) return null;
  if ((before.disabledAt !== null) === disabled) return { before, after: before };
  const after = await db.staffUser.update({
    where: { id },
    data: { disabledAt: disabled ? new Date() : null, updatedAt: new Date() },
    select: ACCOUNT,
  });
  return { before, after };
}
