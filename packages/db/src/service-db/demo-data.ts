import { DEMO_MERCHANT, DEMO_PORTAL_OWNER, DEMO_STAFF } from '@mm/config';
import { createDb, type Db, type DbOptions, assertPoolerSettings } from '../database/index.js';
import type { DeploymentMode } from '@mm/domain';
import { assertDeploymentMode } from '../operator-accounts/index.js';
import type { SecretBox } from '../database/index.js';
import { findMerchantUserForLogin } from '../merchant-users/index.js';
import { normalizeStaffEmail, verifyPassword } from '../staff/index.js';

/**
 * What the development seed created with published credentials (README, docs) that is still usable:
 * the demo merchant's API key (active, or revoked with a grace period still running), the demo
 * staff accounts not disabled, and the demo portal owner not disabled while its password is still the
 * published one (its TOTP secret and recovery codes are published too: the password is what is left to
 * change). Empty on a database that never held them or where all are shut.
 */
export async function usableDemoData(db: Db, now = new Date()): Promise<string[]> {
  const key = await db.apiKey.findFirst({
    where: { apiKey: DEMO_MERCHANT.apiKey, OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
    select: { id: true },
  });
  const staff = await db.staffUser.findMany({
    where: { email: { in: DEMO_STAFF.users.map((u) => normalizeStaffEmail(u.email)) }, disabledAt: null },
    select: { email: true },
    orderBy: { email: 'asc' },
  });
  const owner = await findMerchantUserForLogin(db, { email: DEMO_PORTAL_OWNER.email });
  const ownerWorks =
    owner !== null &&
    owner.disabledAt === null &&
    (await verifyPassword(DEMO_PORTAL_OWNER.password, owner.passwordHash));
  return [
    ...(key
      ? [
          `the demo merchant's API key ${DEMO_MERCHANT.apiKey} is active (revoke it: pnpm admin key:revoke --api-key ${DEMO_MERCHANT.apiKey})`,
        ]
      : []),
    ...staff.map(
      (s) => `the demo staff account ${s.email} is enabled (disable it: pnpm admin staff:disable --email ${s.email})`,
    ),
    ...(ownerWorks
      ? [
          `the demo portal owner ${DEMO_PORTAL_OWNER.email} can sign in with its published password (disable it: pnpm admin merchant-user:disable --email ${DEMO_PORTAL_OWNER.email})`,
        ]
      : []),
  ];
}

/**
 * A production service refuses to start while demo credentials work on its database: anyone who has
 * read the README could sign API requests as the demo merchant (and so move its money), log in to
 * the back-office, or sign in to the merchant portal as the demo merchant's owner. Outside NODE_ENV=production it checks nothing (`pnpm start`, tests, the demo stack).
 */
export async function assertNoDemoDataInProduction(
  db: Db,
  nodeEnv: string | undefined,
  now = new Date(),
): Promise<void> {
  if (nodeEnv !== 'production') return;
  const found = await usableDemoData(db, now);
  if (found.length > 0) {
    throw new Error(
      `refusing to start with NODE_ENV=production: this database holds demo data with published credentials: ${found.join('; ')}`,
    );
  }
}

/**
 * createDb for a service: checked with assertNoDemoDataInProduction, assertDeploymentMode (and, through a
 * transaction-mode pooler, assertPoolerSettings), and closed again when refused.
 */
export async function createServiceDb(
  options: DbOptions & { nodeEnv: string | undefined; deploymentMode: DeploymentMode; secretBox: SecretBox | null },
): Promise<Db> {
  const db = createDb(options);
  try {
    if (options.pooling === 'transaction') {
      await assertPoolerSettings(db, {
        statementTimeoutMs: options.statementTimeoutMs ?? 0,
        lockTimeoutMs: options.lockTimeoutMs ?? 0,
      });
    }
    await assertNoDemoDataInProduction(db, options.nodeEnv);
    await assertDeploymentMode(db, options.deploymentMode, options.secretBox);
  } catch (err) {
    await db.$disconnect();
    throw err;
  }
  return db;
}
