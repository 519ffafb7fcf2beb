import { randomBytes } from 'node:crypto';
import { directDatabaseUrl, type OperatorEnv } from '@mm/config';
import type { Db } from '@mm/db';
import {
  findOperatorAccount,
  listAccountsDownByBreaker,
  loadOperatorAccount,
  markOperatorAccountDownByBreaker,
  markOperatorAccountUpByBreaker,
} from '@mm/db/operator-accounts';
import { listenForReferenceChanges, SecretBox } from '@mm/db';
import {
  instrumentAdapter,
  OperatorBreaker,
  OperatorDirectory,
  probeLookup,
  simulatorConfigFromEnv,
  type BreakerStore,
  type OperatorAdapter,
} from '@mm/operators';
import type { WorkerContext } from './start-worker-service.js';

export interface OperatorDirectoryOverrides {
  /** The breaker's clock (tests). */
  now?: () => number;
  /** Receives the breaker (tests run its ticks themselves instead of waiting for its timer). */
  onBreaker?(breaker: OperatorBreaker): void;
}

/** The breaker's store: the operator_accounts row (its changes audited as system:breaker). */
export function dbBreakerStore(db: Db): BreakerStore {
  return {
    markDown: (key, consecutive) => markOperatorAccountDownByBreaker(db, key, consecutive),
    markUp: (key) => markOperatorAccountUpByBreaker(db, key),
    downByBreaker: () => listAccountsDownByBreaker(db),
  };
}

/**
 * The operator accounts' adapters for a worker service (bridge, expiry worker, refund worker), read
 * from operator_accounts with their credentials opened, rebuilt when PostgreSQL notifies a change (no
 * restart), each call timed per account and watched by the automatic breaker (OPERATOR_BREAKER_THRESHOLD
 * unreachable answers in a row mark the account down; a probe every OPERATOR_BREAKER_PROBE_S marks it up
 * once answered). `simulatorAdapter` replaces the simulator's (tests).
 */
export async function startOperatorDirectory(
  ctx: WorkerContext,
  env: OperatorEnv,
  simulatorAdapter?: OperatorAdapter,
  overrides: OperatorDirectoryOverrides = {},
): Promise<OperatorDirectory> {
  const box = env.MASTER_KEY ? new SecretBox(env.MASTER_KEY) : null;
  const changes = await listenForReferenceChanges({
    databaseUrl: directDatabaseUrl(ctx.env),
    onError: (err) =>
      ctx.logger.warn(
        { err },
        'reference changes: LISTEN connection failed; operator accounts are re-read after their TTL until it is back',
      ),
  });
  ctx.onRelease(() => changes.close());
  const breaker = new OperatorBreaker({
    threshold: env.OPERATOR_BREAKER_THRESHOLD,
    probeIntervalMs: env.OPERATOR_BREAKER_PROBE_S * 1000,
    store: dbBreakerStore(ctx.db),
    registry: ctx.metrics,
    now: overrides.now,
    // Any answer (a "not found" included) goes through the watched adapter and marks the account up.
    probe: async (key) => {
      // The directory below (made after the breaker its adapters are wrapped with): the account's watched adapter.
      const adapter = await directory.adapterFor(key);
      await adapter
        .queryStatus(probeLookup(key, () => randomBytes(10).toString('hex').toUpperCase()))
        .catch(() => undefined);
    },
    onError: (err, what, account) => ctx.logger.warn({ err, account }, `operator breaker: could not ${what}`),
    onChange: (account, change) =>
      ctx.logger.warn(
        { account },
        change === 'down'
          ? `operator breaker: ${account} marked down after ${env.OPERATOR_BREAKER_THRESHOLD} consecutive unreachable answers (new cash-ins answer 503)`
          : `operator breaker: ${account} answered a probe, marked up again`,
      ),
  });
  const directory = new OperatorDirectory({
    load: async ({ countryCode, operator }) => {
      if (!box) return unsealedAccount(ctx, countryCode, operator);
      const account = await loadOperatorAccount(ctx.db, box, countryCode, operator);
      return (
        account && {
          countryCode,
          operator,
          api: account.api,
          baseUrl: account.baseUrl,
          credentials: account.credentials,
          settings: account.settings,
        }
      );
    },
    changes,
    ttlMs: env.REFERENCE_CACHE_TTL_S * 1000,
    simulator: simulatorConfigFromEnv(env),
    simulatorAdapter,
    timeoutMs: env.OPERATOR_TIMEOUT_MS,
    mode: ctx.env.DEPLOYMENT_MODE,
    wrap: (adapter, key) => {
      const timed = instrumentAdapter(adapter, ctx.metrics, `${key.countryCode}:${key.operator}`);
      // "*": the simulator of the settings, for its callbacks only; no account row to mark down.
      return key.countryCode === '*' ? timed : breaker.wrap(timed, key);
    },
  });
  if (breaker.enabled) {
    overrides.onBreaker?.(breaker);
    if (!overrides.onBreaker) {
      let ticking: Promise<void> | null = null;
      const timer = setInterval(
        () => {
          ticking ??= breaker.tick().finally(() => {
            ticking = null;
          });
        },
        Math.min(env.OPERATOR_BREAKER_PROBE_S * 1000, 5000),
      );
      timer.unref();
      ctx.onRelease(async () => {
        clearInterval(timer);
        await ticking;
      });
    }
  }
  return directory;
}

/** Without MASTER_KEY: an account is usable only if it has no credentials to open (the settings' simulator). */
async function unsealedAccount(ctx: WorkerContext, countryCode: string, operator: string) {
  const account = await findOperatorAccount(ctx.db, countryCode, operator);
  if (account?.hasCredentials)
    throw new Error(
      `operator account ${countryCode}:${operator} has credentials, and MASTER_KEY is not set to open them`,
    );
  return (
    account && {
      countryCode,
      operator,
      api: account.api,
      baseUrl: account.baseUrl,
      credentials: null,
      settings: account.settings,
    }
  );
}
