/**
 * The fresh code an action that moves money or changes keys or webhooks asks for (STEP_UP_PERMISSIONS in
 * @mm/domain), whatever the team's sign-in setting: a stolen session alone cannot refund, pay out or
 * redirect webhooks. Only an authenticator code counts here; recovery codes are for signing in when the
 * phone is lost, and the step-up then waits for two-factor to be set up again.
 */
import { findMerchantUserForLogin, type MerchantUserAccount } from '@mm/db/merchant-users';
import { recordAudit } from '@mm/db/staff';
import type { RequestContext, SignInDeps } from './sign-in.js';
import { totpAcceptedOnce } from './sign-in.js';

export type StepUpDeps = Pick<SignInDeps, 'db' | 'box' | 'redis' | 'redisPrefix' | 'now'>;

export type StepUpOutcome = 'confirmed' | 'no_two_factor' | 'wrong_code';

/** `action` names what the code was asked for, in the audit row of a refused code (e.g. `refund`). */
export async function confirmStepUp(
  deps: StepUpDeps,
  user: MerchantUserAccount,
  code: string,
  action: string,
  c: RequestContext,
): Promise<StepUpOutcome> {
  const withSecret = await findMerchantUserForLogin(deps.db, { id: user.id });
  if (!withSecret?.totpEnabledAt) return 'no_two_factor';
  if (await totpAcceptedOnce(deps, withSecret, code.trim())) return 'confirmed';
  await recordAudit(deps.db, {
    actor: user.email,
    requestId: c.requestId,
    ...(c.ip ? { ip: c.ip } : {}),
    staffId: null,
    action: 'portal.step_up_failed',
    after: { for: action },
    merchantId: user.merchantId,
    merchantUserId: user.id,
  });
  return 'wrong_code';
}
