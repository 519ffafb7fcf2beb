import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, registerEngine, unregisterEngine, waitFor } from '@mm/testing';
import { track } from './child-registry.js';

/**
 * Three Redis Sentinels of the suite's own watching a private primary (the machine's redis-server in
 * sentinel mode, each with a config file it may rewrite): quorum 2, the primary taken as down after 1 s
 * without an answer, so that a kill -9 of the primary is followed by the promotion of its replica within
 * seconds, as a production Sentinel set up for fast failover does.
 */
export class PrivateSentinels {
  private constructor(
    readonly master: string,
    readonly ports: number[],
    private readonly dir: string,
    private readonly admins: Redis[],
    private readonly children: ChildProcess[],
  ) {}

  static async start(primaryPort: number, o: { master?: string; replicas: number }): Promise<PrivateSentinels> {
    const master = o.master ?? 'chaos';
    const dir = mkdtempSync(path.join(tmpdir(), 'mm-chaos-sentinel-'));
    const ports = [await freePort(), await freePort(), await freePort()];
    const children: ChildProcess[] = [];
    for (const port of ports) {
      const config = path.join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        config,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${master} 127.0.0.1 ${primaryPort} 2`,
          `sentinel down-after-milliseconds ${master} 1000`,
          `sentinel failover-timeout ${master} 5000`,
          `sentinel parallel-syncs ${master} 1`,
          '',
        ].join('\n'),
      );
      children.push(track(spawn('redis-server', [config, '--sentinel'], { stdio: 'ignore' })));
    }
    const admins = ports.map((port) => new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 }));
    for (const a of admins) a.on('error', () => undefined);
    const sentinels = new PrivateSentinels(master, ports, dir, admins, children);
    registerEngine(sentinels);
    // Ready when each knows the replica and the two other sentinels: only then can they agree on a failover.
    await waitFor(
      async () => {
        const views = await Promise.all(
          admins.map(async (a) => {
            try {
              const [replicas, others] = await Promise.all([
                a.call('SENTINEL', 'REPLICAS', master),
                a.call('SENTINEL', 'SENTINELS', master),
              ]);
              return (replicas as unknown[]).length >= o.replicas && (others as unknown[]).length === ports.length - 1;
            } catch {
              return false;
            }
          }),
        );
        return views.every(Boolean) || undefined;
      },
      { what: 'the sentinels to know the replica and each other', timeoutMs: 30_000, intervalMs: 200 },
    );
    return sentinels;
  }

  /** REDIS_SENTINELS of the services. */
  get addresses(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  /** The port of the primary the sentinels name now. */
  async primaryPort(): Promise<number> {
    const [, port] = (await this.admins[0]!.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.master)) as [
      string,
      string,
    ];
    return Number(port);
  }

  async stop(): Promise<void> {
    for (const a of this.admins) a.disconnect();
    await Promise.all(
      this.children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map(
          (c) =>
            new Promise((resolve) => {
              c.once('exit', resolve);
              c.kill('SIGKILL');
            }),
        ),
    );
    unregisterEngine(this);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The run ends with them up: kill -9 and delete their directory, synchronously. */
  killSync(): void {
    for (const c of this.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
