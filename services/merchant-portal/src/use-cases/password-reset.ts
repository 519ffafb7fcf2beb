/**
 * "Forgot your password": a request answers the same whether or not the email has an account (the mail
 * goes out after the answer's work, not before it); a link sets a new password once and ends every
 * session of the user. Requests are counted per email and per address like sign-ins, on their own keys,
 * so asking for links never locks anyone's sign-in.
 */
import type { Db } from '@mm/db';
import {
  createPasswordReset,
  findMerchantUserForLogin,
  normalizeMerchantUserEmail,
  resetPasswordWithToken,
} from '@mm/db/merchant-users';
import { recordAudit } from '@mm/db/staff';
import type { LoginThrottle } from '@mm/web';
import type { Locale } from '../i18n/locale.js';
import { passwordResetMail, type Mailer } from '@mm/mail';
import type { RequestContext } from './sign-in.js';

export interface PasswordResetDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  resetThrottle: LoginThrottle;
  now(): number;
  /** A mail that could not be sent (the answer has gone already). */
  onMailError(err: unknown): void;
}

export const passwordResetPath = (token: string) => `/password-reset/${token}`;

export async function requestPasswordReset(
  deps: PasswordResetDeps,
  input: { email: string; locale: Locale },
  c: RequestContext,
): Promise<{ kind: 'answered' } | { kind: 'throttled'; retryAfterS: number }> {
  const email = normalizeMerchantUserEmail(input.email);
  const admission = await deps.resetThrottle.admit(email, c.ip);
  if (admission.kind === 'throttled') return { kind: 'throttled', retryAfterS: admission.retryAfterS };
  // A locked email gets the same answer and no more mail: a flood of requests cannot flood its inbox.
  if (admission.kind === 'locked') return { kind: 'answered' };
  const user = await findMerchantUserForLogin(deps.db, { email });
  if (!user || user.disabledAt || user.merchant.status !== 'ACTIVE') return { kind: 'answered' };
  const now = new Date(deps.now());
  const link = await deps.db.$transaction(async (tx) => {
    const made = await createPasswordReset(tx, user.id, now);
    await recordAudit(tx, {
      staffId: null,
      actor: user.email,
      action: 'portal.password_reset_requested',
      targetType: 'merchant_user',
      targetId: user.id,
      merchantId: user.merchantId,
      merchantUserId: user.id,
      requestId: c.requestId,
      ...(c.ip ? { ip: c.ip } : {}),
    });
    return made;
  });
  // Not awaited: the answer must not take longer when the account exists.
  deps.mailer
    .send(
      passwordResetMail(input.locale, {
        to: user.email,
        link: `${deps.publicUrl}${passwordResetPath(link.token)}`,
        expiresAt: link.expiresAt,
      }),
    )
    .catch(deps.onMailError);
  return { kind: 'answered' };
}

/** True once per link: the password is set and every session of the user ends. */
export async function completePasswordReset(
  deps: PasswordResetDeps,
  token: string,
  password: string,
  c: RequestContext,
): Promise<boolean> {
  return deps.db.$transaction(async (tx) => {
    const done = await resetPasswordWithToken(tx, token, password, new Date(deps.now()));
    if (!done) return false;
    const user = await tx.merchantUser.findUniqueOrThrow({ where: { id: done.userId } });
    await recordAudit(tx, {
      staffId: null,
      actor: user.email,
      action: 'portal.password_reset',
      targetType: 'merchant_user',
      targetId: user.id,
      merchantId: user.merchantId,
      merchantUserId: user.id,
      requestId: c.requestId,
      ...(c.ip ? { ip: c.ip } : {}),
    });
    return true;
  });
}
