/**
 * Signing in to the portal, in two steps: the password (throttled and audited as the back-office's login
 * is, with the same rules from @mm/web), then, for a user with two-factor on, a TOTP code or a recovery
 * code. Every outcome is a row in the chained audit log, in the merchant's own part of it once the
 * account is known.
 */
import type { Redis } from 'ioredis';
import type { Db, SecretBox } from '@mm/db';
import {
  findMerchantUserById,
  findMerchantUserForLogin,
  normalizeMerchantUserEmail,
  useRecoveryCode,
  type MerchantUserAccount,
} from '@mm/db/merchant-users';
import { recordAudit } from '@mm/db/staff';
import { auditsRefusal, type LoginThrottle, type PasswordCheck } from '@mm/web';
import { matchTotp } from '../auth/totp.js';

export interface SignInDeps {
  db: Db;
  box: SecretBox;
  throttle: LoginThrottle;
  checkPassword: PasswordCheck;
  /** Where a TOTP code used once is remembered until its window has passed (no replay). */
  redis: Redis;
  redisPrefix: string;
  now(): number;
}

export interface RequestContext {
  requestId: string;
  ip?: string;
}

export type PasswordOutcome =
  | { kind: 'signed_in'; user: MerchantUserAccount }
  /** The password was right; the second factor is asked for next. */
  | { kind: 'second_factor'; userId: string }
  | { kind: 'refused' }
  | { kind: 'throttled'; retryAfterS: number };

/** The binding of a user's sealed TOTP secret: it opens for this user only. */
export const totpBinding = (userId: string) => `merchant_user_totp:${userId}`;

const contextOf = (actor: string, c: RequestContext) => ({
  actor,
  requestId: c.requestId,
  ...(c.ip ? { ip: c.ip } : {}),
});

export async function checkPasswordStep(
  deps: SignInDeps,
  input: { email: string; password: string },
  c: RequestContext,
): Promise<PasswordOutcome> {
  const email = normalizeMerchantUserEmail(input.email);
  const admission = await deps.throttle.admit(email, c.ip);
  if (admission.kind !== 'admitted') {
    if (auditsRefusal(admission.refused)) {
      const user = await findMerchantUserForLogin(deps.db, email);
      await recordAudit(deps.db, {
        ...contextOf(email, c),
        staffId: null,
        action: admission.kind === 'locked' ? 'portal.login_locked' : 'portal.login_throttled',
        after: { refused: admission.refused },
        ...(user ? { merchantId: user.merchantId, merchantUserId: user.id } : {}),
      });
    }
    // A locked account reads as a wrong password: the lock must not tell which emails exist.
    return admission.kind === 'locked'
      ? { kind: 'refused' }
      : { kind: 'throttled', retryAfterS: admission.retryAfterS };
  }

  const user = await findMerchantUserForLogin(deps.db, email);
  const valid = await deps.checkPassword(input.password, user?.passwordHash ?? null);
  const usable = user && user.disabledAt === null && user.merchant.status === 'ACTIVE';
  if (!user || !usable || !valid) {
    const reason = !user
      ? 'unknown_email'
      : !valid
        ? 'wrong_password'
        : user.disabledAt
          ? 'disabled'
          : 'merchant_disabled';
    await recordAudit(deps.db, {
      ...contextOf(email, c),
      staffId: null,
      action: 'portal.login_failed',
      after: { reason, failures: admission.attempt, locked: admission.attempt >= deps.throttle.maxFailures },
      ...(user ? { merchantId: user.merchantId, merchantUserId: user.id } : {}),
    });
    return { kind: 'refused' };
  }
  await deps.throttle.succeeded(email, c.ip);
  if (user.totpEnabledAt !== null) return { kind: 'second_factor', userId: user.id };
  return { kind: 'signed_in', user: await completeSignIn(deps, user.id, c, 'password') };
}

/**
 * Whether `code` is the user's current TOTP code (never accepted twice: the step it matched is kept in
 * Redis past its window) or one of its unused recovery codes.
 */
export async function secondFactorHolds(
  deps: SignInDeps,
  userId: string,
  code: string,
): Promise<'totp' | 'recovery' | null> {
  const user = await deps.db.merchantUser.findUnique({
    where: { id: userId },
    select: { totpSecretCiphertext: true, totpEnabledAt: true },
  });
  if (!user?.totpSecretCiphertext || !user.totpEnabledAt) return null;
  const secret = deps.box.open(user.totpSecretCiphertext, totpBinding(userId));
  const step = matchTotp(secret, code, deps.now());
  if (step !== null) {
    // Three steps (90 s) cover the window the code is accepted in; NX: only its first use gets through.
    const first = await deps.redis.set(`${deps.redisPrefix}:mp:totp-used:${userId}:${step}`, '1', 'EX', 90, 'NX');
    return first === 'OK' ? 'totp' : null;
  }
  return (await useRecoveryCode(deps.db, userId, code, new Date(deps.now()))) ? 'recovery' : null;
}

export async function checkSecondFactorStep(
  deps: SignInDeps,
  userId: string,
  code: string,
  c: RequestContext,
): Promise<MerchantUserAccount | null> {
  const user = await findMerchantUserById(deps.db, userId);
  if (!user || user.disabledAt !== null || user.merchant.status !== 'ACTIVE') return null;
  const factor = await secondFactorHolds(deps, userId, code);
  if (!factor) {
    await recordAudit(deps.db, {
      ...contextOf(user.email, c),
      staffId: null,
      action: 'portal.second_factor_failed',
      merchantId: user.merchantId,
      merchantUserId: user.id,
    });
    return null;
  }
  return completeSignIn(deps, user.id, c, factor);
}

async function completeSignIn(
  deps: SignInDeps,
  userId: string,
  c: RequestContext,
  factor: 'password' | 'totp' | 'recovery',
): Promise<MerchantUserAccount> {
  const user = (await findMerchantUserById(deps.db, userId))!;
  await recordAudit(deps.db, {
    ...contextOf(user.email, c),
    staffId: null,
    action: 'portal.login',
    targetType: 'merchant_user',
    targetId: user.id,
    after: { factor },
    merchantId: user.merchantId,
    merchantUserId: user.id,
  });
  return user;
}
