import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, redisAnswers, registerEngine, unregisterEngine, waitFor } from '@mm/testing';
import { track } from './child-registry.js';

/**
 * A Redis server of the suite's own, on a free loopback port, configured as production must be
 * (noeviction) and keeping nothing on disk: FLUSHALL and a restart lose everything, which is the
 * fault under test, and the machine's shared Redis is never touched. Its working directory is a
 * temporary one: a replica writes the primary's snapshot there when it syncs (it once landed in the
 * repository's root, the suite's working directory).
 */
export class PrivateRedis {
  private server: ChildProcess | null = null;
  private admin: Redis | null = null;

  private readonly dir = mkdtempSync(path.join(tmpdir(), 'mm-chaos-redis-'));

  private constructor(
    readonly port: number,
    private readonly replicaOf: number | null,
  ) {
    registerEngine(this);
  }

  /** `replicaOf`: the port of a primary this one replicates (read-only, as Sentinel's replica). */
  static async start(o: { replicaOf?: number } = {}): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), o.replicaOf ?? null);
    await redis.boot();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  private async boot(): Promise<void> {
    const server = track(
      spawn(
        'redis-server',
        [
          '--port',
          String(this.port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--maxmemory-policy',
          'noeviction',
          ...(this.replicaOf !== null ? ['--replicaof', '127.0.0.1', String(this.replicaOf)] : []),
        ],
        { stdio: 'ignore', cwd: this.dir },
      ),
    );
    this.server = server;
    await waitFor(
      async () => {
        if (server.exitCode !== null || server.signalCode !== null)
          throw new Error(`redis-server on ${this.port} exited`);
        return redisAnswers(this.port);
      },
      { what: `redis-server on ${this.port}`, intervalMs: 50 },
    ).catch(async (err: unknown) => {
      await this.kill();
      throw err;
    });
    this.admin = new Redis(this.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  }

  /** Every key of every client gone at once. */
  async flushAll(): Promise<void> {
    await this.admin!.flushall();
  }

  /** Whether a BullMQ job of the chaos prefix is in Redis, in whatever state. */
  async jobExists(queue: string, jobId: string): Promise<boolean> {
    return (await this.admin!.exists(`chaos:bull:${queue}:${jobId}`)) === 1;
  }

  /** Jobs a worker holds right now in a BullMQ queue of the chaos prefix. */
  async activeJobs(queue: string): Promise<number> {
    return this.admin!.llen(`chaos:bull:${queue}:active`);
  }

  /** Ids of those jobs. */
  async activeJobIds(queue: string): Promise<string[]> {
    return this.admin!.lrange(`chaos:bull:${queue}:active`, 0, -1);
  }

  /** Jobs waiting for their time (retries, expiry checks) in a BullMQ queue of the chaos prefix. */
  async delayedJobs(queue: string): Promise<number> {
    return this.admin!.zcard(`chaos:bull:${queue}:delayed`);
  }

  /** The payloads of the active jobs. */
  async activePayloads(queue: string): Promise<Record<string, unknown>[]> {
    const ids = await this.activeJobIds(queue);
    const data = await Promise.all(ids.map((id) => this.admin!.hget(`chaos:bull:${queue}:${id}`, 'data')));
    return data.filter((d): d is string => d !== null).map((d) => JSON.parse(d) as Record<string, unknown>);
  }

  /** INFO memory's used_memory: every byte the server holds for data and itself. */
  async usedMemory(): Promise<number> {
    const info = await this.admin!.info('memory');
    return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? NaN);
  }

  /**
   * Every key, grouped by its shape (ids, numbers and hashes replaced by `*`), with MEMORY USAGE summed,
   * and how many of them expire (a TTL): what grows for good is what does not.
   */
  async keyspace(): Promise<{ pattern: string; keys: number; bytes: number; expiring: number }[]> {
    const groups = new Map<string, { pattern: string; keys: number; bytes: number; expiring: number }>();
    let cursor = '0';
    do {
      const [next, keys] = await this.admin!.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const pattern = key
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(_\d+)?/g, '*')
          .replace(/[0-9a-f]{32,}/g, '*')
          .replace(/(?<=:)[^:]*\d[^:]*(?=$|:)/g, '*');
        const [bytes, ttl] = await Promise.all([this.admin!.memory('USAGE', key), this.admin!.pttl(key)]);
        const g = groups.get(pattern) ?? { pattern, keys: 0, bytes: 0, expiring: 0 };
        g.keys++;
        g.bytes += Number(bytes ?? 0);
        if (ttl > 0) g.expiring++;
        groups.set(pattern, g);
      }
    } while (cursor !== '0');
    return [...groups.values()].sort((a, b) => b.bytes - a.bytes);
  }

  /** kill -9 and start again on the same port: every connection drops, the data is gone. */
  async restart(downMs = 0): Promise<void> {
    await this.kill();
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.boot();
  }

  private async kill(): Promise<void> {
    this.admin?.disconnect();
    this.admin = null;
    const server = this.server;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    await this.kill();
    unregisterEngine(this);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The run ends with it up: kill -9 and delete its directory, synchronously. */
  killSync(): void {
    if (this.server && this.server.exitCode === null && this.server.signalCode === null) this.server.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
