import { Redis } from 'ioredis';
import pg from 'pg';
import { samplesOf } from '@mm/testing';
import type { ChaosSystem } from '../support/chaos-system.js';

/** What one sample of the soak reads, per service process and for the shared engines. */
export interface Sample {
  atMs: number;
  /** Completed cash-ins so far (terminal), for figures per cash-in. */
  cashIns: number;
  services: Record<
    string,
    {
      rssBytes: number;
      heapUsedBytes: number;
      eventLoopP99S: number;
      activeHandles: number;
      dbConnections: number;
    }
  >;
  redisUsedBytes: number;
  /** pg_total_relation_size of every table of the suite's database. */
  tableBytes: Record<string, number>;
}

const metric = (text: string, name: string) => samplesOf(text, name)[0]?.value ?? Number.NaN;

/**
 * Reads the system every time it is asked: each service's own /metrics (prom-client's process and Node
 * metrics: resident memory, heap used, event-loop delay p99, active handles), its connections from
 * pg_stat_activity (each service names itself in application_name), Redis's used_memory and the size of
 * every table.
 */
export class Sampler {
  private readonly redis: Redis;
  private readonly admin: pg.Client;

  private constructor(
    private readonly sys: ChaosSystem,
    redis: Redis,
    admin: pg.Client,
  ) {
    this.redis = redis;
    this.admin = admin;
  }

  static async start(sys: ChaosSystem): Promise<Sampler> {
    const redis = new Redis(sys.redis.url, { maxRetriesPerRequest: 1 });
    const admin = new pg.Client({ connectionString: sys.database.url, application_name: 'soak-sampler' });
    await admin.connect();
    return new Sampler(sys, redis, admin);
  }

  async sample(): Promise<Sample> {
    const services: Sample['services'] = {};
    const connections = await this.admin.query<{ app: string; n: number }>(
      `SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() GROUP BY 1`,
    );
    const byApp = new Map(connections.rows.map((r) => [r.app, r.n]));
    for (const s of Object.values(this.sys.instances).flat()) {
      const text = await fetch(`${s.spec.internalUrl}/metrics`, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.text(),
        () => '',
      );
      services[s.spec.name] = {
        rssBytes: metric(text, 'process_resident_memory_bytes'),
        heapUsedBytes: metric(text, 'nodejs_heap_size_used_bytes'),
        eventLoopP99S: metric(text, 'nodejs_eventloop_lag_p99_seconds'),
        activeHandles: metric(text, 'nodejs_active_handles_total'),
        dbConnections: byApp.get(s.spec.name) ?? 0,
      };
    }
    const info = await this.redis.info('memory');
    const tables = await this.admin.query<{ name: string; bytes: string }>(
      `SELECT relname AS name, pg_total_relation_size(relid)::text AS bytes FROM pg_stat_user_tables ORDER BY relname`,
    );
    const done = await this.admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE type = 'CASHIN' AND status IN ('SUCCESS', 'FAILED', 'EXPIRED', 'REVERSED')`,
    );
    return {
      atMs: Date.now(),
      cashIns: done.rows[0]!.n,
      services,
      redisUsedBytes: Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN),
      tableBytes: Object.fromEntries(tables.rows.map((t) => [t.name, Number(t.bytes)])),
    };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.admin.end();
  }
}
