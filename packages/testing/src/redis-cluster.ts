import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { registerEngine, unregisterEngine } from './engine-registry.js';
import { freePort } from './free-port.js';
import { deleteKeysUnder, type TestRedis } from './test-redis.js';
import { waitFor } from './wait-for.js';

const run = promisify(execFile);

/**
 * A Redis Cluster of the test's own: `masters` redis-server processes in cluster mode on free loopback
 * ports (nothing kept on disk, noeviction as production requires), joined by `redis-cli --cluster
 * create` with the 16384 slots spread over them. stop() kills them and deletes their directory; so does
 * this process's exit.
 */
export class PrivateRedisCluster {
  private constructor(
    readonly ports: number[],
    private readonly dir: string,
    private readonly servers: ChildProcess[],
  ) {}

  /**
   * `join` forms the cluster from the nodes' `host:port` (redis-cli --cluster create by default): a
   * test gives its own to check a deployment's script.
   */
  static async start(masters = 3, o: { join?: (nodes: string[]) => Promise<void> } = {}): Promise<PrivateRedisCluster> {
    const dir = mkdtempSync(path.join(tmpdir(), 'mm-redis-cluster-'));
    const ports: number[] = [];
    for (let i = 0; i < masters; i++) ports.push(await freePort());
    const servers = ports.map((port) =>
      spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--maxmemory-policy',
          'noeviction',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          path.join(dir, `nodes-${port}.conf`),
          '--dir',
          dir,
        ],
        { stdio: 'ignore' },
      ),
    );
    const cluster = new PrivateRedisCluster(ports, dir, servers);
    registerEngine(cluster);
    try {
      for (const port of ports) {
        await waitFor(async () => (await redisAnswers(port)) || undefined, {
          what: `redis-server on ${port}`,
          timeoutMs: 10_000,
          intervalMs: 50,
        });
      }
      const nodes = ports.map((p) => `127.0.0.1:${p}`);
      if (o.join) await o.join(nodes);
      else await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
      await waitFor(async () => (await Promise.all(ports.map(clusterOk))).every(Boolean) || undefined, {
        what: 'the cluster to be ok on every node',
        timeoutMs: 20_000,
        intervalMs: 100,
      });
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** REDIS_CLUSTER_NODES of the services. */
  get nodes(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  /**
   * A suite's view of it, as createTestRedis gives the shared server: a prefix of its own, here a hash
   * tag (`{…}`, as REDIS_PREFIX must be on a cluster), and the settings that point services at the cluster.
   */
  testRedis(): TestRedis & { env: Record<string, string>; cluster: Cluster } {
    const prefix = `{mmtest${randomBytes(5).toString('hex')}}`;
    const client = new Cluster(
      this.ports.map((port) => ({ host: '127.0.0.1', port })),
      { redisOptions: { maxRetriesPerRequest: 3 } },
    );
    // Every key under the hash tag is in one slot, on one master: a DEL of a batch of them is allowed.
    const flush = async () => {
      for (const node of client.nodes('master')) await deleteKeysUnder(node, prefix);
    };
    return {
      // Names no server: on a cluster REDIS_URL only gives the password, and a connection made from it
      // instead of from REDIS_CLUSTER_NODES would fail at once rather than work by luck on one node.
      url: 'redis://127.0.0.1:1',
      prefix,
      env: { REDIS_CLUSTER_NODES: this.nodes },
      cluster: client,
      flush,
      async close() {
        await flush();
        client.disconnect();
      },
    };
  }

  async stop(): Promise<void> {
    unregisterEngine(this);
    await Promise.all(
      this.servers
        .filter((s) => s.exitCode === null && s.signalCode === null)
        .map(
          (s) =>
            new Promise((resolve) => {
              s.once('exit', resolve);
              s.kill('SIGKILL');
            }),
        ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }

  killSync(): void {
    for (const s of this.servers) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Whether a redis-server answers PING on this loopback port (a fresh client per probe: one client retried by hand races its own reconnects). */
export async function redisAnswers(port: number): Promise<boolean> {
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // A refused connection is the answer "not yet"; without a listener ioredis prints it as unhandled.
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

async function clusterOk(port: number): Promise<boolean> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
  return /cluster_state:ok/.test(stdout);
}
