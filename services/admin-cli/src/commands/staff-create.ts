import { isUniqueViolation, type Db } from '@mm/db';
import { createStaffUser, generatePassword, recordAudit } from '@mm/db/staff';
import { isStaffRole, STAFF_ROLES } from '@mm/domain';

export interface StaffCreateInput {
  email: string;
  name: string;
  role: string;
  /** Omitted: a strong one is generated and returned (shown once). */
  password?: string;
}

export interface StaffCreateResult {
  staff_id: string;
  email: string;
  name: string;
  role: string;
  /** Only when generated: a password given on the command line is not echoed back. */
  password?: string;
}

export const MIN_PASSWORD_LENGTH = 12;

/** A back-office account, with its audit row (actor `admin-cli`) in the same transaction. */
export async function staffCreate(db: Db, input: StaffCreateInput): Promise<StaffCreateResult> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) throw new Error('--email must be an email address');
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw new Error('--name must be 1 to 200 characters');
  if (!isStaffRole(input.role)) throw new Error(`--role must be one of ${STAFF_ROLES.join(', ')}`);
  if (input.password !== undefined && (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > 1024)) {
    throw new Error(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const password = input.password ?? generatePassword();
  const role = input.role;
  try {
    const staff = await db.$transaction(async (tx) => {
      const created = await createStaffUser(tx, { email, name, role, password });
      await recordAudit(tx, {
        staffId: null,
        actor: 'admin-cli',
        action: 'staff.create',
        targetType: 'staff',
        targetId: created.id,
        after: created,
      });
      return created;
    });
    return {
      staff_id: staff.id,
      email: staff.email,
      name: staff.name,
      role: staff.role,
      ...(input.password === undefined ? { password } : {}),
    };
  } catch (err) {
    if (isUniqueViolation(err)) throw new Error(`a staff user with the email ${email} already exists`);
    throw err;
  }
}
