import { confirmTotpEnrolment, createMerchantUser, newRecoveryCodes, startTotpEnrolment } from '@mm/db/merchant-users';
import { SecretBox } from '@mm/db';
import type { MerchantRole } from '@mm/domain';
import { createLogger } from '@mm/observability';
import {
  newTotpSecret,
  parseEnv as portalEnv,
  startMerchantPortal,
  totpBinding,
  totpCode,
  type RunningPortal,
} from '@mm/merchant-portal';
import type { System } from './system.js';

export const PORTAL_PASSWORD = 'portal-password-123';

export interface PortalUserLogin {
  email: string;
  /** Base32, as an authenticator app takes it. */
  totpSecret: string;
  /** The current code, a new one at each call once its 30 s step has passed. */
  code(): string;
  /**
   * The next step's code, still inside the accepted window: an action's fresh code right after signing in
   * with code() (each step's code is accepted once, so the same one would be refused).
   */
  nextCode(): string;
}

/** The merchant portal of a started system: same database, Redis prefix and master key (`env`: more settings). */
export async function startSystemPortal(
  sys: System,
  env: Record<string, string> = {},
): Promise<RunningPortal & { user(role: MerchantRole): Promise<PortalUserLogin> }> {
  const running = await startMerchantPortal(
    portalEnv({
      DATABASE_URL: sys.database.url,
      REDIS_URL: sys.redis.url,
      REDIS_PREFIX: sys.redis.prefix,
      MASTER_KEY: sys.masterKey,
      MERCHANT_PORTAL_PORT: '0',
      MERCHANT_PORTAL_INTERNAL_PORT: '0',
      DB_POOL_SIZE: '3',
      LOG_LEVEL: 'silent',
      ...sys.redisEnv,
      ...env,
    }),
    { logger: createLogger('e2e-portal', process.env.E2E_LOG_LEVEL ?? 'silent') },
  );
  const box = new SecretBox(sys.masterKey);
  let seq = 0;
  return {
    ...running,
    /** A user of the system's merchant with this role and two-factor on. */
    async user(role) {
      const email = `${role}${++seq}@boutique.test`;
      const account = await createMerchantUser(sys.db, {
        merchantId: sys.merchant.id,
        email,
        name: `E2E ${role}`,
        role,
        password: PORTAL_PASSWORD,
      });
      const totpSecret = newTotpSecret();
      await startTotpEnrolment(sys.db, account.id, box.seal(totpSecret, totpBinding(account.id)));
      await sys.db.$transaction((tx) => confirmTotpEnrolment(tx, account.id, newRecoveryCodes(), new Date()));
      return {
        email,
        totpSecret,
        code: () => totpCode(totpSecret, Date.now()),
        nextCode: () => totpCode(totpSecret, Date.now() + 30_000),
      };
    },
  };
}
