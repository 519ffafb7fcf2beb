import { dummyVerifyPassword, findStaffByEmail, normalizeStaffEmail, recordAudit, verifyPassword, type Db, type StaffAccount } from '@mm/db';
import type { LoginThrottle } from '../auth/login-throttle.js';

export interface LogInDeps {
  db: Db;
  throttle: LoginThrottle;
}

export interface LogInInput {
  email: string;
  password: string;
  requestId: string;
  ip?: string;
}

/**
 * What the caller may tell the person: only `ok` or not. `refused` covers an unknown email, a wrong
 * password, a disabled account and a locked one alike (the same message, no account enumeration); the
 * reason is in the audit log for admins.
 */
export type LogInOutcome = { ok: true; staff: StaffAccount } | { ok: false; locked: boolean };

export async function logIn({ db, throttle }: LogInDeps, input: LogInInput): Promise<LogInOutcome> {
  const email = normalizeStaffEmail(input.email);
  const context = { actor: email, requestId: input.requestId, ...(input.ip ? { ip: input.ip } : {}) };
  const locked = await throttle.isLocked(email);
  const user = await findStaffByEmail(db, email);
  // Always one scrypt, whatever happens: the response time says nothing about the account.
  const valid = user ? await verifyPassword(input.password, user.passwordHash) : await dummyVerifyPassword(input.password);

  if (locked) {
    // Not counted: the lock expires lockoutS after the failure that set it, whoever keeps trying.
    await recordAudit(db, { ...context, staffId: user?.id ?? null, action: 'login_locked' });
    return { ok: false, locked: true };
  }
  if (!user || user.disabledAt || !valid) {
    const failures = await throttle.recordFailure(email);
    const reason = !user ? 'unknown_email' : user.disabledAt ? 'disabled' : 'wrong_password';
    await recordAudit(db, {
      ...context, staffId: user?.id ?? null, action: 'login_failed',
      after: { reason, failures, locked: failures >= throttle.maxFailures },
    });
    return { ok: false, locked: false };
  }

  await throttle.reset(email);
  await recordAudit(db, { ...context, staffId: user.id, action: 'login', targetType: 'staff', targetId: user.id });
  const { passwordHash: _hash, ...staff } = user;
  return { ok: true, staff };
}
