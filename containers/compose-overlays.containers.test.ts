/**
 * The scale-out overlays of infra/compose/, each added alone to the demo profile and run by Docker
 * Compose on podman: every service healthy on the topology, the overlay's engine really in the path,
 * and the README's curl cash-in carried to SUCCESS with its webhook.
 */
import { ComposeProject, DEMO_VARIABLES, generatedSecrets, waitHealthy } from './lib/compose.js';
import { recordFigures } from './lib/figures.js';
import { cashInToSuccess } from './lib/merchant-flow.js';
import { startPodmanApi, type PodmanApi } from './lib/podman-api.js';
import { podman } from './lib/podman.js';
import { waitFor } from '@mm/testing';

const OVERLAYS: Array<{ overlay: string; inPath: string; proof: (p: ComposeProject) => Promise<void> }> = [
  {
    overlay: 'pgbouncer',
    inPath: "PostgreSQL's sessions on the database come from PgBouncer (and the direct LISTEN connections)",
    proof: async (p) => {
      const pgbouncer = (
        await podman([
          'inspect',
          '-f',
          '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}',
          await p.containerId('pgbouncer'),
        ])
      ).trim();
      const clients = (
        await p.exec('postgres', [
          'psql',
          '-U',
          'postgres',
          '-tAc',
          "SELECT DISTINCT host(client_addr) FROM pg_stat_activity WHERE datname = 'mobilemoney' AND backend_type = 'client backend' AND query NOT LIKE 'LISTEN%'",
        ])
      )
        .trim()
        .split('\n');
      expect(clients).toContain(pgbouncer);
    },
  },
  {
    overlay: 'read-replica',
    inPath: 'the replica streams from the primary (pg_stat_replication)',
    proof: async (p) => {
      // Healthy means accepting connections; its WAL receiver may still be (re)connecting: wait for it.
      const state = () =>
        p.exec('postgres', ['psql', '-U', 'postgres', '-tAc', 'SELECT state FROM pg_stat_replication']);
      await waitFor(async () => (await state()).trim() === 'streaming', {
        timeoutMs: 30_000,
        intervalMs: 500,
        what: 'the replica streaming from the primary',
      });
      expect(
        (await p.exec('postgres-replica', ['psql', '-U', 'postgres', '-tAc', 'SELECT pg_is_in_recovery()'])).trim(),
      ).toBe('t');
    },
  },
  {
    overlay: 'redis-sentinel',
    inPath: 'the three sentinels name the primary and see its replica',
    proof: async (p) => {
      for (const sentinel of ['redis-sentinel-1', 'redis-sentinel-2', 'redis-sentinel-3']) {
        const master = await p.exec(sentinel, ['redis-cli', '-p', '26379', 'sentinel', 'master', 'mymaster']);
        expect(master).toMatch(/num-slaves\s+1/);
        expect(master).toMatch(/num-other-sentinels\s+2/);
      }
    },
  },
  {
    overlay: 'redis-cluster',
    inPath: "the three nodes form one cluster, and the jobs' keys are on it under the hash-tag prefix",
    proof: async (p) => {
      expect(await p.exec('redis-cluster-1', ['redis-cli', 'cluster', 'info'])).toMatch(/cluster_state:ok/);
      // All of them hash to one slot ({mm}): on one of the three nodes.
      let keys = '';
      for (const node of ['redis-cluster-1', 'redis-cluster-2', 'redis-cluster-3'])
        keys += await p.exec(node, ['redis-cli', '--scan', '--pattern', '{mm}:bull:*']);
      expect(keys).toMatch(/\{mm\}:bull:/);
    },
  },
];

describe('the overlays of infra/compose/ with the demo profile', () => {
  let podmanApi: PodmanApi;
  beforeAll(async () => {
    podmanApi = await startPodmanApi();
  });
  afterAll(async () => {
    await podmanApi?.close();
  });

  for (const { overlay, inPath, proof } of OVERLAYS) {
    it(`${overlay}.yml: healthy, ${inPath}, and a cash-in reaches SUCCESS`, async () => {
      const project = new ComposeProject(
        podmanApi,
        `mm${overlay.replace(/-/g, '')}`,
        [overlay],
        { ...DEMO_VARIABLES, ...generatedSecrets() },
        ['demo'],
      );
      await project.down();
      try {
        const started = Date.now();
        await project.up();
        await waitHealthy(project);
        const secondsToHealthy = (Date.now() - started) / 1000;
        await cashInToSuccess();
        await proof(project);
        recordFigures('compose-overlays', { [overlay]: { secondsToHealthy } });
      } finally {
        await project.down();
      }
    });
  }
});
