import pg from 'pg';
import { isDatabaseUnavailable } from './database-unavailable.js';

export interface ReadReplicaOptions {
  /** DATABASE_REPLICA_URL: a streaming replica (a hot standby) of the primary. */
  url: string;
  /** REPLICA_MAX_LAG_S: behind by more than this, it is not read (its answers would be too old). */
  maxLagS: number;
  /** How often its state is probed (one short query on a connection of its own). */
  probeIntervalMs?: number;
  connectTimeoutMs?: number;
  /** Hears the replica going down (a probe failing after one that answered, or the first), and each read that failed on it and went to the primary. */
  onError?(err: unknown, what: string): void;
}

export interface ReplicaState {
  /** It answered the last probe. */
  up: boolean;
  /** It is a standby (false: promoted, or the URL names a primary; either way not read). */
  standby: boolean;
  /** Seconds its replay is behind: 0 when it has replayed all it received, else the age of the last transaction it replayed. */
  lagSeconds: number | null;
}

const PROBE = `SELECT pg_is_in_recovery() AS standby,
  (CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
        ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END)::float8 AS lag`;

/**
 * A read replica for the reads that may be a few seconds old and are large: merchants' exports and
 * back-office searches. Never for a read a decision about money is taken on (the API's status reads,
 * anything in a transaction, the workers): those stay on the primary. Read only while it answers, is a
 * standby and is behind by at most maxLagS; otherwise, and when a read on it fails as unavailable, the
 * primary answers: a replica down costs the primary the load, never an answer.
 */
export class ReadReplica {
  private current: ReplicaState = { up: false, standby: false, lagSeconds: null };
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private probed = false;
  private readonly probes: pg.Pool;
  /** Reads sent to each side since start: the metric of where exports and searches went. */
  readonly reads = { replica: 0, primary: 0 };

  private constructor(private readonly o: ReadReplicaOptions) {
    this.probes = new pg.Pool({ connectionString: o.url, max: 1, connectionTimeoutMillis: o.connectTimeoutMs ?? 2000, application_name: 'mm-replica-probe' });
    this.probes.on('error', () => undefined);
    this.probes.on('connect', (client) => { client.on('error', () => undefined); });
  }

  /**
   * Probed once before it resolves (a replica down at start is simply not read), then probeIntervalMs
   * after each probe ends: a probe waiting out its connect timeout never has another queued behind it.
   */
  static async start(o: ReadReplicaOptions): Promise<ReadReplica> {
    const replica = new ReadReplica(o);
    const next = async (): Promise<void> => {
      await replica.probe();
      if (!replica.closed) replica.timer = setTimeout(() => void next(), o.probeIntervalMs ?? 1000).unref();
    };
    await next();
    return replica;
  }

  /** The replica of a service's settings (DATABASE_REPLICA_URL, REPLICA_MAX_LAG_S), started; null without one. */
  static async fromSettings(
    env: { DATABASE_REPLICA_URL?: string; REPLICA_MAX_LAG_S: number; DB_CONNECT_TIMEOUT_MS: number }, onError: ReadReplicaOptions['onError'],
  ): Promise<ReadReplica | null> {
    if (!env.DATABASE_REPLICA_URL) return null;
    return ReadReplica.start({ url: env.DATABASE_REPLICA_URL, maxLagS: env.REPLICA_MAX_LAG_S, connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS, onError });
  }

  get state(): ReplicaState {
    return this.current;
  }

  async probe(): Promise<ReplicaState> {
    try {
      const { rows } = await this.probes.query<{ standby: boolean; lag: number }>(PROBE);
      this.current = { up: true, standby: rows[0]!.standby, lagSeconds: rows[0]!.lag };
    } catch (err) {
      // Heard when it goes down (or is down at start), not at every probe while it stays down.
      if (this.current.up || !this.probed) this.o.onError?.(err, 'probe');
      this.current = { up: false, standby: false, lagSeconds: null };
    }
    this.probed = true;
    return this.current;
  }

  /** Whether reads go to it now. */
  usable(): boolean {
    const { up, standby, lagSeconds } = this.current;
    return up && standby && lagSeconds !== null && lagSeconds <= this.o.maxLagS;
  }

  /**
   * `onReplica` when the replica is usable, else `onPrimary`; a replica read that fails as unavailable
   * marks it down (until the next probe says otherwise) and is run again on the primary.
   */
  async read<T>(onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    if (!this.usable()) {
      this.reads.primary++;
      return onPrimary();
    }
    try {
      const result = await onReplica();
      this.reads.replica++;
      return result;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      this.current = { ...this.current, up: false };
      this.o.onError?.(err, 'read');
      this.reads.primary++;
      return onPrimary();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.probes.end().catch(() => undefined);
  }
}
