/**
 * Signing in to the portal, in two steps: the password (throttled and audited as the back-office's login
 * is, with the same rules from @mm/web), then, for a user with two-factor on, a TOTP code or a recovery
 * code. Every outcome is a row in the chained audit log, in the merchant's own part of it once the
 * account is known.
 */
import type { RedisClient } from '@mm/queues';
import type { Db, SecretBox } from '@mm/db';
import {
  accountOf,
  findMerchantUserForLogin,
  merchantUserTotpBinding,
  normalizeMerchantUserEmail,
  useRecoveryCode,
  type MerchantUserAccount,
  type MerchantUserWithSecrets,
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
  redis: RedisClient;
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

/** The binding of a user's sealed TOTP secret: it opens for this user only (defined in @mm/db, which the demo seed uses). */
export const totpBinding = merchantUserTotpBinding;

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
      const user = await findMerchantUserForLogin(deps.db, { email });
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

  const user = await findMerchantUserForLogin(deps.db, { email });
  const valid = await deps.checkPassword(input.password, user?.passwordHash ?? null);
  if (!user || !usable(user) || !valid) {
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
  return { kind: 'signed_in', user: await completeSignIn(deps, user, c, 'password') };
}

/** A user who may sign in at all: enabled, of a merchant that is active. */
const usable = (user: MerchantUserWithSecrets) => user.disabledAt === null && user.merchant.status === 'ACTIVE';

/**
 * Whether `code` is the user's current TOTP code, never accepted twice: the step it matched is kept in
 * Redis past its window. Sign-in and step-up share it, so a code used for one is spent for the other.
 */
export async function totpAcceptedOnce(
  deps: Pick<SignInDeps, 'box' | 'redis' | 'redisPrefix' | 'now'>,
  user: Pick<MerchantUserWithSecrets, 'id' | 'totpSecretCiphertext' | 'totpEnabledAt'>,
  code: string,
): Promise<boolean> {
  if (!user.totpSecretCiphertext || !user.totpEnabledAt) return false;
  const secret = deps.box.open(user.totpSecretCiphertext, totpBinding(user.id));
  const step = matchTotp(secret, code, deps.now());
  if (step === null) return false;
  // Three steps (90 s) cover the window the code is accepted in; NX: only its first use gets through.
  const first = await deps.redis.set(`${deps.redisPrefix}:mp:totp-used:${user.id}:${step}`, '1', 'EX', 90, 'NX');
  return first === 'OK';
}

/** The user's TOTP code (once) or one of its unused recovery codes. */
async function secondFactorOf(
  deps: SignInDeps,
  user: MerchantUserWithSecrets,
  code: string,
): Promise<'totp' | 'recovery' | null> {
  if (!user.totpSecretCiphertext || !user.totpEnabledAt) return null;
  if (await totpAcceptedOnce(deps, user, code)) return 'totp';
  return (await useRecoveryCode(deps.db, user.id, code, new Date(deps.now()))) ? 'recovery' : null;
}

export async function checkSecondFactorStep(
  deps: SignInDeps,
  userId: string,
  code: string,
  c: RequestContext,
): Promise<MerchantUserAccount | null> {
  const user = await findMerchantUserForLogin(deps.db, { id: userId });
  if (!user || !usable(user)) return null;
  const factor = await secondFactorOf(deps, user, code);
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
  return completeSignIn(deps, user, c, factor);
}

async function completeSignIn(
  deps: SignInDeps,
  user: MerchantUserWithSecrets,
  c: RequestContext,
  factor: 'password' | 'totp' | 'recovery',
): Promise<MerchantUserAccount> {
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
  return accountOf(user);
}
