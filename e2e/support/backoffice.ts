import { createStaffUser } from '@mm/db/staff';
import type { StaffRole } from '@mm/domain';
import { createLogger } from '@mm/observability';
import { parseEnv as backofficeEnv, startBackoffice, type RunningBackoffice } from '@mm/backoffice';
import type { System } from './system.js';

export const STAFF_PASSWORD = 'staff-password-123';

/** The back-office of a started system: same database, same Redis prefix, same master key (`env`: more settings). */
export async function startSystemBackoffice(
  sys: System,
  env: Record<string, string> = {},
): Promise<RunningBackoffice & { staff(role: StaffRole): Promise<string> }> {
  const running = await startBackoffice(
    backofficeEnv({
      DATABASE_URL: sys.database.url,
      REDIS_URL: sys.redis.url,
      REDIS_PREFIX: sys.redis.prefix,
      MASTER_KEY: sys.masterKey,
      BACKOFFICE_PORT: '0',
      BACKOFFICE_INTERNAL_PORT: '0',
      DB_POOL_SIZE: '3',
      LOG_LEVEL: 'silent',
      ...sys.redisEnv,
      ...env,
    }),
    { logger: createLogger('e2e-backoffice', process.env.E2E_LOG_LEVEL ?? 'silent') },
  );
  let seq = 0;
  return {
    ...running,
    /** A staff member of this role; returns the email to log in with STAFF_PASSWORD. */
    async staff(role) {
      const email = `${role}${++seq}@backoffice.test`;
      await createStaffUser(sys.db, { email, name: `E2E ${role}`, role, password: STAFF_PASSWORD });
      return email;
    },
  };
}
