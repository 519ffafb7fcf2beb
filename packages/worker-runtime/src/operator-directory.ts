import type { OperatorEnv } from '@mm/config';
import { findOperatorAccount, listenForReferenceChanges, loadOperatorAccount, SecretBox } from '@mm/db/reference-data';
import { instrumentAdapter, OperatorDirectory, simulatorConfigFromEnv, type OperatorAdapter } from '@mm/operators';
import type { WorkerContext } from './start-worker-service.js';

/**
 * The operator accounts' adapters for a worker service (bridge, expiry worker, refund worker), read
 * from operator_accounts with their credentials opened, rebuilt when PostgreSQL notifies a change (no
 * restart), each call timed per account. `simulatorAdapter` replaces the simulator's (tests).
 */
export async function startOperatorDirectory(ctx: WorkerContext, env: OperatorEnv, simulatorAdapter?: OperatorAdapter): Promise<OperatorDirectory> {
  const box = env.MASTER_KEY ? new SecretBox(env.MASTER_KEY) : null;
  const changes = await listenForReferenceChanges({
    databaseUrl: ctx.env.DATABASE_URL,
    onError: (err) => ctx.logger.warn({ err }, 'reference changes: LISTEN connection failed; operator accounts are re-read after their TTL until it is back'),
  });
  ctx.onRelease(() => changes.close());
  return new OperatorDirectory({
    load: async ({ countryCode, operator }) => {
      if (!box) return unsealedAccount(ctx, countryCode, operator);
      const account = await loadOperatorAccount(ctx.db, box, countryCode, operator);
      return account && { countryCode, operator, api: account.api, baseUrl: account.baseUrl, credentials: account.credentials, settings: account.settings };
    },
    changes,
    ttlMs: env.REFERENCE_CACHE_TTL_S * 1000,
    simulator: simulatorConfigFromEnv(env),
    simulatorAdapter,
    timeoutMs: env.OPERATOR_TIMEOUT_MS,
    wrap: (adapter, key) => instrumentAdapter(adapter, ctx.metrics, `${key.countryCode}:${key.operator}`),
  });
}

/** Without MASTER_KEY: an account is usable only if it has no credentials to open (the settings' simulator). */
async function unsealedAccount(ctx: WorkerContext, countryCode: string, operator: string) {
  const account = await findOperatorAccount(ctx.db, countryCode, operator);
  if (account?.hasCredentials) throw new Error(`operator account ${countryCode}:${operator} has credentials, and MASTER_KEY is not set to open them`);
  return account && { countryCode, operator, api: account.api, baseUrl: account.baseUrl, credentials: null, settings: account.settings };
}
