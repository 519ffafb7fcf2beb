import type { Db } from '@mm/db';
import { findStaffByEmail, normalizeStaffEmail, recordAudit, type StaffAccount } from '@mm/db/staff';
import { auditsRefusal, type LoginThrottle, type PasswordCheck } from '@mm/web';

export interface LogInDeps {
  db: Db;
  throttle: LoginThrottle;
  checkPassword: PasswordCheck;
}

export interface LogInInput {
  email: string;
  password: string;
  requestId: string;
  /** The client address (`req.ip`, through TRUST_PROXY): counted by the per-address limit. */
  ip?: string;
}

/**
 * What the caller may tell the person. `refused` covers an unknown email, a wrong password, a disabled
 * account and a locked one alike (one message, no account enumeration; the reason is in the audit log
 * for admins). `throttled` is about the client address, not the account: it may say so.
 */
export type LogInOutcome =
  | { ok: true; staff: StaffAccount }
  | { ok: false; refusal: 'refused' | 'locked' }
  | { ok: false; refusal: 'throttled'; retryAfterS: number };

export async function logIn({ db, throttle, checkPassword }: LogInDeps, input: LogInInput): Promise<LogInOutcome> {
  const email = normalizeStaffEmail(input.email);
  const context = { actor: email, requestId: input.requestId, ...(input.ip ? { ip: input.ip } : {}) };
  // Counted before the password is looked at: of any number of concurrent guesses, only the first
  // LOGIN_MAX_FAILURES reach the password check; the others are refused without one.
  const admission = await throttle.admit(email, input.ip);

  if (admission.kind !== 'admitted') {
    if (auditsRefusal(admission.refused)) {
      const user = await findStaffByEmail(db, email);
      await recordAudit(db, {
        ...context,
        staffId: user?.id ?? null,
        action: admission.kind === 'locked' ? 'login_locked' : 'login_throttled',
        after: { refused: admission.refused },
      });
    }
    return admission.kind === 'locked'
      ? { ok: false, refusal: 'locked' }
      : { ok: false, refusal: 'throttled', retryAfterS: admission.retryAfterS };
  }

  const user = await findStaffByEmail(db, email);
  // Always one scrypt once admitted, whatever the account: the response time says nothing about it.
  const valid = await checkPassword(input.password, user?.passwordHash ?? null);
  if (!user || user.disabledAt || !valid) {
    const reason = !user ? 'unknown_email' : user.disabledAt ? 'disabled' : 'wrong_password';
    await recordAudit(db, {
      ...context,
      staffId: user?.id ?? null,
      action: 'login_failed',
      // failures: this email's attempts since its last success, this one included.
      after: { reason, failures: admission.attempt, locked: admission.attempt >= throttle.maxFailures },
    });
    return { ok: false, refusal: 'refused' };
  }

  await throttle.succeeded(email, input.ip);
  await recordAudit(db, { ...context, staffId: user.id, action: 'login', targetType: 'staff', targetId: user.id });
  const { passwordHash: _hash, ...staff } = user;
  return { ok: true, staff };
}
