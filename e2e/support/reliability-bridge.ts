import { createLogger } from '@mm/observability';
import { parseEnv as bridgeEnv, startOperatorBridge, type RunningBridge } from '@mm/operator-bridge';
import type { System } from './system.js';

/**
 * One more operator-bridge instance on a suite's database, Redis prefix and simulator, listening on
 * a free port: how a test reaches the bridge's HTTP callback route (system.ts keeps its own bridge's
 * port to itself). Instances share the queues like replicas of one Deployment, so running it beside
 * the suite's bridge is a normal deployment shape; like replicas behind one Service, both give the
 * operator the suite bridge's callback URL (with the default one, a push this instance made got its
 * outcome only from the expiry check minutes later: a flaky wait). Operator token and callback secret are
 * the defaults system.ts relies on as well.
 */
export async function startExtraBridge(sys: System): Promise<RunningBridge> {
  return startOperatorBridge(
    bridgeEnv({
      DATABASE_URL: sys.database.url,
      REDIS_URL: sys.redis.url,
      REDIS_PREFIX: sys.redis.prefix,
      LOG_LEVEL: 'silent',
      DB_POOL_SIZE: '2',
      OPERATOR_BASE_URL: sys.sim.url,
      OPERATOR_CALLBACK_BASE_URL: sys.bridgeUrl,
      OPERATOR_BRIDGE_PORT: '0',
      OPERATOR_BRIDGE_INTERNAL_PORT: '0',
      OUTBOX_RELAY_INTERVAL_MS: '100',
      OUTBOX_GRACE_MS: '300',
    }),
    { logger: createLogger('e2e-extra-bridge', 'silent'), jobOptions: { backoff: { type: 'fixed', delay: 50 } } },
  );
}

/** The simulator adapter's callback route on a bridge (`/operator/callbacks/{adapter name}`). */
export const simulatorCallbackUrl = (bridge: RunningBridge) => `${bridge.url}/operator/callbacks/simulator`;
