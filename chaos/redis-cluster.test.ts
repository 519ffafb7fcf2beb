import { Cluster } from 'ioredis';
import { startChaosSystem, type ChaosSystem } from './support/chaos-system.js';
import { restartedServices, settle, violations } from './support/invariants.js';
import { itEndsReconciled } from './support/reconcile-all.js';
import { killWhileHolding } from './support/kill-while-holding.js';
import { runLoad } from './support/load.js';

/**
 * The crash scenario on a 3-master Redis Cluster (every service given REDIS_CLUSTER_NODES and the
 * hash-tagged prefix `{chaos}`): kill -9 of the operator bridge and of the webhook dispatcher while
 * they hold jobs, in the middle of a load; their locked jobs are taken over, their lost outbox work
 * re-published, and nothing is lost or done twice.
 */
let sys: ChaosSystem;
let cluster: Cluster;

beforeAll(async () => {
  sys = await startChaosSystem({ suite: 'redis-cluster', redisCluster: true });
  cluster = new Cluster(sys.redisCluster!.ports.map((port) => ({ host: '127.0.0.1', port })));
});
afterAll(async () => {
  cluster?.disconnect();
  await sys?.stop();
});

const SUFFIXES = ['01', '02', '01', '06', '05', '01'];
const activeJobs = (queue: string) => cluster.lrange(`{chaos}:bull:${queue}:active`, 0, -1);

it('kill -9 of the bridge and of the dispatcher while they hold jobs: nothing lost, nothing doubled', async () => {
  await sys.simulator.setFaults({ latency_ms: 400 });
  sys.receiver.setMode({ kind: 'slow', delayMs: 300 });
  const load = runLoad(sys.api, { prefix: 'cluster', count: 40, concurrency: 8, suffixes: SUFFIXES, refundEvery: 3 });
  const failedLoad = load.then(
    () => null,
    (err: unknown) => err,
  );

  const cut: Record<string, number> = {};
  const starts: Record<string, number> = {};
  for (const [name, queue] of [
    ['bridge', 'operator-requests'],
    ['dispatcher', 'webhook-deliveries'],
  ] as const) {
    try {
      const { cut: ids, kills } = await killWhileHolding(sys, name, queue, () => activeJobs(queue));
      cut[name] = ids.length;
      starts[name] = 1 + kills;
      // Down long enough for work to pile up behind it.
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      await sys.services[name].start();
    }
  }
  expect(Object.values(cut).every((n) => n > 0)).toBe(true);

  expect(await failedLoad).toBeNull();
  const report = await load;
  await sys.simulator.resetFaults();
  sys.receiver.setMode({ kind: 'ok' });
  await settle(sys);
  expect(await violations(sys)).toEqual([]);
  expect(report.transactionIds).toHaveLength(40);
  // The services ran on the cluster: their queues' keys are there, under the hash tag.
  expect(await cluster.exists('{chaos}:bull:operator-requests:meta')).toBe(1);
  expect(restartedServices(sys).filter((s) => !/^(bridge|dispatcher): running true/.test(s))).toEqual([]);
  expect({ bridge: sys.services.bridge.starts, dispatcher: sys.services.dispatcher.starts }).toEqual(starts);
  console.info(
    `redis-cluster kill: jobs cut in flight ${JSON.stringify(cut)}; load answers ${JSON.stringify(report.statuses)}`,
  );
});

// Last, on everything the scenarios above left (docs/reconciliation.md).
itEndsReconciled(() => sys);
