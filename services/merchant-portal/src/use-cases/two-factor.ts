/**
 * A user's own two-factor sign-in: set up (a new key, confirmed by a code of it, which turns it on with ten
 * new recovery codes), set up again on a new phone, turned off. Replacing or removing a key that is on asks
 * for proof of holding it: a current code, or a recovery code (the phone may be the thing lost). Turning
 * it off is refused while the team requires it. Every change is audited in its own transaction.
 */
import {
  confirmTotpEnrolment,
  disableTotp,
  findMerchantUserForLogin,
  newRecoveryCodes,
  startTotpEnrolment,
  useRecoveryCode,
  type MerchantUserAccount,
  type MerchantUserWithSecrets,
} from '@mm/db/merchant-users';
import { recordAudit, type AuditInput } from '@mm/db/staff';
import { newTotpSecret } from '../auth/totp.js';
import { totpAcceptedOnce, totpBinding, type RequestContext } from './sign-in.js';
import type { StepUpDeps } from './step-up.js';

export type TwoFactorDeps = StepUpDeps;

const auditOf = (user: MerchantUserAccount, c: RequestContext, action: string, after?: unknown): AuditInput => ({
  staffId: null,
  actor: user.email,
  action,
  targetType: 'merchant_user',
  targetId: user.id,
  merchantId: user.merchantId,
  merchantUserId: user.id,
  requestId: c.requestId,
  ...(c.ip ? { ip: c.ip } : {}),
  ...(after === undefined ? {} : { after }),
});

/** The key being set up (not on yet), opened for showing, or null when none is. */
export async function pendingTotpSecret(deps: TwoFactorDeps, userId: string): Promise<string | null> {
  const user = await findMerchantUserForLogin(deps.db, { id: userId });
  if (!user?.totpSecretCiphertext || user.totpEnabledAt) return null;
  return deps.box.open(user.totpSecretCiphertext, totpBinding(user.id));
}

/** A current code of the key that is on (once), or an unused recovery code (spent). */
async function holdsSecondFactor(deps: TwoFactorDeps, user: MerchantUserWithSecrets, code: string): Promise<boolean> {
  if (await totpAcceptedOnce(deps, user, code.trim())) return true;
  return useRecoveryCode(deps.db, user.id, code, new Date(deps.now()));
}

async function refused(deps: TwoFactorDeps, user: MerchantUserAccount, c: RequestContext, what: string) {
  // The same row as a refused step-up: the Security page shows every wrong code in one kind.
  await recordAudit(deps.db, auditOf(user, c, 'portal.step_up_failed', { for: what }));
}

export type StartOutcome = 'started' | 'wrong_code';

/** A new key for the user; while one is on, only with `code` proving it (the old key stops at once). */
export async function startTwoFactor(
  deps: TwoFactorDeps,
  user: MerchantUserAccount,
  code: string,
  c: RequestContext,
): Promise<StartOutcome> {
  const current = await findMerchantUserForLogin(deps.db, { id: user.id });
  if (!current) throw new Error(`no merchant user ${user.id}`);
  const replacing = current.totpEnabledAt !== null;
  if (replacing && !(await holdsSecondFactor(deps, current, code))) {
    await refused(deps, user, c, 'two_factor_reset');
    return 'wrong_code';
  }
  const sealed = deps.box.seal(newTotpSecret(), totpBinding(user.id));
  await deps.db.$transaction(async (tx) => {
    // The old key's recovery codes go with it: they belong to a set-up that is no longer on.
    if (replacing) await disableTotp(tx, user.id, new Date(deps.now()));
    await startTotpEnrolment(tx, user.id, sealed);
    await recordAudit(tx, auditOf(user, c, 'portal.two_factor_setup_started', { replacing }));
  });
  return 'started';
}

export type ConfirmOutcome =
  { kind: 'enabled'; recoveryCodes: string[] } | { kind: 'wrong_code' } | { kind: 'not_pending' };

/** Turns on the key being set up when `code` is its current code; the recovery codes are shown once. */
export async function confirmTwoFactor(
  deps: TwoFactorDeps,
  user: MerchantUserAccount,
  code: string,
  c: RequestContext,
): Promise<ConfirmOutcome> {
  const current = await findMerchantUserForLogin(deps.db, { id: user.id });
  if (!current?.totpSecretCiphertext || current.totpEnabledAt) return { kind: 'not_pending' };
  // The pending key is checked as the one that is on would be, so the code confirming it is spent too.
  const now = new Date(deps.now());
  if (!(await totpAcceptedOnce(deps, { ...current, totpEnabledAt: now }, code.trim()))) return { kind: 'wrong_code' };
  const recoveryCodes = newRecoveryCodes();
  await deps.db.$transaction(async (tx) => {
    await confirmTotpEnrolment(tx, user.id, recoveryCodes, now);
    await recordAudit(tx, auditOf(user, c, 'portal.two_factor_enabled'));
  });
  return { kind: 'enabled', recoveryCodes };
}

export type DisableOutcome = 'disabled' | 'required' | 'not_on' | 'wrong_code';

export async function disableTwoFactor(
  deps: TwoFactorDeps,
  user: MerchantUserAccount,
  code: string,
  c: RequestContext,
): Promise<DisableOutcome> {
  const current = await findMerchantUserForLogin(deps.db, { id: user.id });
  if (!current) throw new Error(`no merchant user ${user.id}`);
  if (current.merchant.requireTwoFactor) return 'required';
  if (!current.totpEnabledAt) return 'not_on';
  if (!(await holdsSecondFactor(deps, current, code))) {
    await refused(deps, user, c, 'two_factor_disable');
    return 'wrong_code';
  }
  await deps.db.$transaction(async (tx) => {
    await disableTotp(tx, user.id, new Date(deps.now()));
    await recordAudit(tx, auditOf(user, c, 'portal.two_factor_disabled'));
  });
  return 'disabled';
}
