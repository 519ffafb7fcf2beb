import { deploymentModeViolation, type DeploymentMode } from '@mm/domain';
import type { Db, SecretBox } from '../database/index.js';
import { listAccountsForModeCheck } from './credentials.js';

/**
 * A service refuses to start on a database whose operator accounts its deployment's mode forbids: live
 * with a simulator account enabled, or a sandbox holding an account set up for an operator's live system
 * (deployment-mode.ts of @mm/domain). Without `box` the credentials are not read (a Wave key then goes unseen).
 */
export async function assertDeploymentMode(db: Db, mode: DeploymentMode, box: SecretBox | null): Promise<void> {
  const problems = (await listAccountsForModeCheck(db, box))
    .map((a) => deploymentModeViolation(mode, a))
    .filter((p) => p !== null);
  if (problems.length > 0) throw new Error(`refusing to start with DEPLOYMENT_MODE=${mode}: ${problems.join('; ')}`);
}
